import { ConfigError } from '../../errors/cadre-error.js';
import {
  auditHash,
  auditHeadMac,
  auditMac,
  cleanAuditInput,
  GENESIS_HASH,
  sameDigest,
  type AuditHead,
} from '../audit-chain.js';
import type { AuditBreak, AuditEntry, AuditInput, AuditVerification } from '../records.js';
import { toAuditEntry } from '../rows.js';
import type { AuditRow } from '../schema/database.js';
import { now, writeTransaction, type StoreContext } from '../store-context.js';
import { HEAD_COLUMNS, headMacValid, readAuditHead, toHead } from './audit-head.js';

export function appendAudit(
  context: StoreContext,
  input: AuditInput,
  signal?: AbortSignal,
): Promise<AuditEntry> {
  return writeTransaction(
    context,
    async (db) => {
      // Bumping the head row first takes its lock (PostgreSQL) or the write lock (SQLite):
      // a concurrent appender, in this process or another, waits and then sees our entry.
      const bumped = await db
        .updateTable('audit_head')
        .set((eb) => ({ seq: eb('seq', '+', 1) }))
        .where('id', '=', 1)
        .returning(HEAD_COLUMNS)
        .executeTakeFirstOrThrow();
      const seq = Number(bumped.seq);
      const keyedFrom = nextKeyedFrom(context.auditKey, toHead({ ...bumped, seq: seq - 1 }));
      const unhashed = {
        ...cleanAuditInput(input),
        id: context.newId(),
        seq,
        createdAt: now(),
        prevHash: bumped.hash,
      };
      const key = keyedFrom === null ? undefined : context.auditKey;
      const hash = key ? auditMac(key, unhashed) : auditHash(unhashed);
      const entry: AuditEntry = { ...unhashed, hash };
      await db.insertInto('audit_log').values(toRow(entry)).execute();
      const mac = key ? auditHeadMac(key, { seq, hash, keyedFrom }) : null;
      await db
        .updateTable('audit_head')
        .set({ hash, mac, keyed_from: keyedFrom })
        .where('id', '=', 1)
        .execute();
      return entry;
    },
    signal,
  );
}

/**
 * The first keyed seq after this append (null: the entry uses the public
 * recipe). A fresh chain is keyed from entry 1; an existing unkeyed one only
 * by sealAudit, because sealing whatever the database holds would also bless
 * a chain an attacker rewrote and unsealed. Refuses to extend a keyed chain
 * it cannot vouch for: re-MACing a rolled-back head would hide the rollback.
 */
function nextKeyedFrom(key: Buffer | undefined, previous: AuditHead): number | null {
  if (previous.mac === null && previous.keyedFrom === null)
    return key !== undefined && previous.seq === 0 ? 1 : null;
  if (key === undefined)
    throw new ConfigError(
      'The audit log is keyed: open the store with its audit key (CADRE_AUDIT_KEY or the key file).',
    );
  if (!headMacValid(key, previous))
    throw new ConfigError(
      'The audit head fails its MAC (the log was altered, or this is not its key): run `cadre audit verify`.',
    );
  return previous.keyedFrom;
}

export async function listAudit(
  context: StoreContext,
  options: { runId?: string; after?: number; limit?: number },
  signal?: AbortSignal,
): Promise<AuditEntry[]> {
  let query = context.db
    .selectFrom('audit_log')
    .selectAll()
    .where('seq', '>', options.after ?? 0);
  if (options.runId !== undefined) query = query.where('run_id', '=', options.runId);
  const rows = await query
    .orderBy('seq')
    .limit(options.limit ?? 1000)
    .execute({ signal });
  return rows.map(toAuditEntry);
}

const PAGE = 1000;

/**
 * Walks the chain up to the head read first (entries appended meanwhile lie
 * beyond it), then checks the head against the last entry and its own MAC.
 * Without the key only the public recipe and the links can be checked, which
 * a database writer can recompute: the answer is then 'unkeyed'. A head row
 * copied earlier and restored later still carries a valid MAC: only an
 * anchor kept elsewhere (`cadre audit export`) catches that.
 */
export async function verifyAudit(
  context: StoreContext,
  signal?: AbortSignal,
): Promise<AuditVerification> {
  const key = context.auditKey;
  const head = await readAuditHead(context, signal);
  const keyedFrom = head.keyedFrom ?? Number.POSITIVE_INFINITY;
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH;
  while (expectedSeq <= head.seq) {
    const limit = Math.min(PAGE, head.seq - expectedSeq + 1);
    const page = await listAudit(context, { after: expectedSeq - 1, limit }, signal);
    for (const entry of page) {
      if (entry.seq !== expectedSeq) return broken(expectedSeq, 'seq_gap');
      if (entry.prevHash !== prevHash) return broken(entry.seq, 'prev_hash_mismatch');
      const reason = entryFault(entry, entry.seq >= keyedFrom, key);
      if (reason) return broken(entry.seq, reason);
      prevHash = entry.hash;
      expectedSeq += 1;
    }
    if (page.length < limit) break;
  }
  const count = expectedSeq - 1;
  if (count < head.seq) return broken(count + 1, 'truncated');
  if (!sameDigest(head.hash, prevHash)) return broken(count, 'head_mismatch');
  if (await rowsBeyond(context, head.seq, signal)) return broken(count + 1, 'head_mismatch');
  if (head.mac === null && head.keyedFrom === null)
    return count === 0 ? { ok: true, count } : broken(1, 'unkeyed');
  if (key === undefined) return broken(1, 'unkeyed');
  if (!headMacValid(key, head)) return broken(count + 1, 'head_mismatch');
  return { ok: true, count };
}

/** What is wrong with one entry's own hash, if anything. */
function entryFault(
  entry: AuditEntry,
  keyed: boolean,
  key: Buffer | undefined,
): AuditBreak | undefined {
  const { hash, ...unhashed } = entry;
  if (keyed) return key && !sameDigest(auditMac(key, unhashed), hash) ? 'mac_mismatch' : undefined;
  if (sameDigest(auditHash(unhashed), hash)) return undefined;
  // A keyed entry where the head says the public recipe: the head's seal was stripped.
  return key && sameDigest(auditMac(key, unhashed), hash) ? 'head_mismatch' : 'hash_mismatch';
}

/** Rows past the head while the head stays put: the head was rolled back over them. */
async function rowsBeyond(context: StoreContext, seq: number, signal?: AbortSignal) {
  const [beyond] = await listAudit(context, { after: seq, limit: 1 }, signal);
  if (beyond === undefined) return false;
  // The head moved on: a concurrent append, not a rollback.
  return (await readAuditHead(context, signal)).seq === seq;
}

const broken = (brokenAt: number, reason: AuditBreak): AuditVerification => ({
  ok: false,
  brokenAt,
  reason,
});

function toRow(entry: AuditEntry): AuditRow {
  return {
    id: entry.id,
    seq: entry.seq,
    run_id: entry.runId ?? null,
    action_id: entry.actionId ?? null,
    model_name: entry.modelName ?? null,
    tool_name: entry.toolName ?? null,
    input_hash: entry.inputHash ?? null,
    policy_decision: entry.policyDecision ?? null,
    approval_id: entry.approvalId ?? null,
    execution_status: entry.executionStatus ?? null,
    error_code: entry.errorCode ?? null,
    message: entry.message,
    created_at: entry.createdAt,
    prev_hash: entry.prevHash,
    hash: entry.hash,
  };
}
