import { canonicalJson } from '../util/canonical-json.js';
import type { AuditEntry, AuditInput } from './records.js';
import { sha256Hex } from '../util/sha256.js';

/** The prevHash of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Messages are summaries; a cap keeps a careless caller from filling the log with payloads. */
export const MAX_AUDIT_MESSAGE = 1000;

const FIELDS = [
  'runId',
  'actionId',
  'modelName',
  'toolName',
  'inputHash',
  'policyDecision',
  'approvalId',
  'executionStatus',
  'errorCode',
] as const satisfies ReadonlyArray<keyof AuditInput>;

/**
 * SHA-256 over the canonical JSON of every field but `hash` itself, absent
 * fields as null, so an entry read back from either database hashes the same.
 */
export function auditHash(entry: Omit<AuditEntry, 'hash'>): string {
  const fields: Record<string, unknown> = {
    id: entry.id,
    seq: entry.seq,
    message: entry.message,
    createdAt: entry.createdAt,
    prevHash: entry.prevHash,
  };
  for (const field of FIELDS) fields[field] = entry[field] ?? null;
  return sha256Hex(canonicalJson(fields));
}

/** The input with only the known fields, unset ones dropped, and the message capped. */
export function cleanAuditInput(input: AuditInput): AuditInput {
  const clean: AuditInput = { message: input.message.slice(0, MAX_AUDIT_MESSAGE) };
  for (const field of FIELDS)
    if (input[field] !== undefined && input[field] !== null) clean[field] = input[field];
  return clean;
}
