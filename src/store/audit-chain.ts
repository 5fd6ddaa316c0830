import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../errors/cadre-error.js';
import { canonicalJson } from '../util/canonical-json.js';
import type { AuditEntry, AuditInput } from './records.js';
import { sha256Hex } from '../util/sha256.js';

/** The prevHash of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Messages are summaries; a cap keeps a careless caller from filling the log with payloads. */
export const MAX_AUDIT_MESSAGE = 1000;

/** Shorter keys would make the MAC the weak link; 32 bytes matches SHA-256's strength. */
export const MIN_AUDIT_KEY_BYTES = 32;

/**
 * Domain tags: an entry MAC and a head MAC are never computed over the same
 * bytes, so no row of the log can be replayed as a valid head.
 */
const ENTRY_TAG = 'cadre.audit.entry.v1\n';
const HEAD_TAG = 'cadre.audit.head.v1\n';

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

/** The audit head: the last seq and hash, and from which seq on entries are keyed. */
export interface AuditHead {
  seq: number;
  hash: string;
  /** HMAC of the other fields; null until the chain is keyed (sealed). */
  mac: string | null;
  /** First seq hashed with the key; earlier entries used the public recipe. */
  keyedFrom: number | null;
}

/** Canonical JSON of every field but `hash` itself, absent fields as null, so both databases agree. */
function entryText(entry: Omit<AuditEntry, 'hash'>): string {
  const fields: Record<string, unknown> = {
    id: entry.id,
    seq: entry.seq,
    message: entry.message,
    createdAt: entry.createdAt,
    prevHash: entry.prevHash,
  };
  for (const field of FIELDS) fields[field] = entry[field] ?? null;
  return canonicalJson(fields);
}

/** The public, unkeyed recipe (SHA-256): entries written before the chain was keyed. */
export function auditHash(entry: Omit<AuditEntry, 'hash'>): string {
  return sha256Hex(entryText(entry));
}

/** The keyed recipe (HMAC-SHA-256): without the key nobody can recompute it after an edit. */
export function auditMac(key: Buffer, entry: Omit<AuditEntry, 'hash'>): string {
  return hmacHex(key, ENTRY_TAG + entryText(entry));
}

/** MAC of the head, so rolling it back (truncating the log) needs the key. */
export function auditHeadMac(key: Buffer, head: Omit<AuditHead, 'mac'>): string {
  return hmacHex(
    key,
    HEAD_TAG + canonicalJson({ seq: head.seq, hash: head.hash, keyedFrom: head.keyedFrom }),
  );
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function assertAuditKey(key: Buffer): void {
  if (key.length < MIN_AUDIT_KEY_BYTES)
    throw new ConfigError(`The audit key must be at least ${MIN_AUDIT_KEY_BYTES} bytes.`);
}

/** The input with only the known fields, unset ones dropped, and the message capped. */
export function cleanAuditInput(input: AuditInput): AuditInput {
  const clean: AuditInput = { message: input.message.slice(0, MAX_AUDIT_MESSAGE) };
  for (const field of FIELDS)
    if (input[field] !== undefined && input[field] !== null) clean[field] = input[field];
  return clean;
}

function hmacHex(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}
