import { auditHash, cleanAuditInput, GENESIS_HASH } from '../audit-chain.js';
import type { AuditEntry, AuditInput, AuditVerification } from '../records.js';
import { toAuditEntry } from '../rows.js';
import type { AuditRow } from '../schema/database.js';
import { now, writeTransaction, type StoreContext } from '../store-context.js';

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
      const head = await db
        .updateTable('audit_head')
        .set((eb) => ({ seq: eb('seq', '+', 1) }))
        .where('id', '=', 1)
        .returning(['seq', 'hash'])
        .executeTakeFirstOrThrow();
      const unhashed = {
        ...cleanAuditInput(input),
        id: context.newId(),
        seq: Number(head.seq),
        createdAt: now(),
        prevHash: head.hash,
      };
      const entry: AuditEntry = { ...unhashed, hash: auditHash(unhashed) };
      await db.insertInto('audit_log').values(toRow(entry)).execute();
      await db.updateTable('audit_head').set({ hash: entry.hash }).where('id', '=', 1).execute();
      return entry;
    },
    signal,
  );
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

/** Walks the chain page by page; the head row catches entries cut off the end. */
export async function verifyAudit(
  context: StoreContext,
  signal?: AbortSignal,
): Promise<AuditVerification> {
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH;
  for (;;) {
    const page = await listAudit(context, { after: expectedSeq - 1, limit: PAGE }, signal);
    for (const entry of page) {
      if (entry.seq !== expectedSeq) return { ok: false, brokenAt: expectedSeq, reason: 'seq_gap' };
      if (entry.prevHash !== prevHash)
        return { ok: false, brokenAt: entry.seq, reason: 'prev_hash_mismatch' };
      const { hash, ...unhashed } = entry;
      if (auditHash(unhashed) !== hash)
        return { ok: false, brokenAt: entry.seq, reason: 'hash_mismatch' };
      prevHash = hash;
      expectedSeq += 1;
    }
    if (page.length < PAGE) break;
  }
  const count = expectedSeq - 1;
  const head = await context.db
    .selectFrom('audit_head')
    .select(['seq', 'hash'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow({ signal });
  if (Number(head.seq) !== count)
    return { ok: false, brokenAt: count + 1, reason: 'head_mismatch' };
  if (head.hash !== prevHash) return { ok: false, brokenAt: count, reason: 'head_mismatch' };
  return { ok: true, count };
}

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
