import { ConfigError, ConflictError } from '../../errors/cadre-error.js';
import { auditHeadMac, sameDigest, type AuditHead } from '../audit-chain.js';
import type { AuditHeadRow } from '../schema/database.js';
import { writeTransaction, type StoreContext } from '../store-context.js';

export const HEAD_COLUMNS = ['seq', 'hash', 'mac', 'keyed_from'] as const;

export async function readAuditHead(
  context: Pick<StoreContext, 'db'>,
  signal?: AbortSignal,
): Promise<AuditHead> {
  const row = await context.db
    .selectFrom('audit_head')
    .select(HEAD_COLUMNS)
    .where('id', '=', 1)
    .executeTakeFirstOrThrow({ signal });
  return toHead(row);
}

/** True when the head is sealed and its MAC holds under `key`. */
export function headMacValid(key: Buffer, head: AuditHead): boolean {
  return (
    head.mac !== null && head.keyedFrom !== null && sameDigest(auditHeadMac(key, head), head.mac)
  );
}

/**
 * Keys an existing unkeyed chain from its next entry on, if its head is still
 * `expected` (what the caller verified). Entries so far keep the public recipe
 * and are anchored by the head MAC, then by the first keyed entry's prevHash.
 * Explicit, never automatic: sealing whatever the database holds would also
 * bless a chain that an attacker rewrote and unsealed.
 */
export async function sealAudit(
  context: Pick<StoreContext, 'db' | 'dialect' | 'auditKey'>,
  expected: Pick<AuditHead, 'seq' | 'hash'>,
  signal?: AbortSignal,
): Promise<AuditHead> {
  const key = context.auditKey;
  if (key === undefined) throw new ConfigError('Sealing the audit log needs the audit key.');
  const head = { seq: expected.seq, hash: expected.hash, keyedFrom: expected.seq + 1 };
  const mac = auditHeadMac(key, head);
  const sealed = await writeTransaction(
    context,
    (db) =>
      db
        .updateTable('audit_head')
        .set({ mac, keyed_from: head.keyedFrom })
        .where('id', '=', 1)
        .where('seq', '=', head.seq)
        .where('hash', '=', head.hash)
        .where('mac', 'is', null)
        .where('keyed_from', 'is', null)
        .executeTakeFirst(),
    signal,
  );
  if (sealed.numUpdatedRows !== 1n)
    throw new ConflictError(
      'The audit log changed or was keyed meanwhile; check it and try again.',
    );
  return { ...head, mac };
}

export function toHead(row: Pick<AuditHeadRow, (typeof HEAD_COLUMNS)[number]>): AuditHead {
  return {
    seq: Number(row.seq),
    hash: row.hash,
    mac: row.mac,
    keyedFrom: row.keyed_from === null ? null : Number(row.keyed_from),
  };
}
