import type { AuditHead } from './audit-chain.js';
import type { KyselyStore } from './kysely-store.js';
import { readAuditHead } from './operations/audit-head.js';
import type { Store } from './types.js';

/** The last line of an export: the head it was taken at, to be kept somewhere the database is not. */
export type AuditAnchor = { type: 'head' } & AuditHead;

export type AnchorCheck =
  { ok: true; seq: number } | { ok: false; brokenAt: number; reason: 'truncated' | 'rewritten' };

const PAGE = 1000;

/**
 * Writes the chain as NDJSON: one `{type:'entry', …}` line per entry, then the
 * head line. The head is read first and entries up to it only, so appends
 * made meanwhile never make the export disagree with its own head.
 */
export async function exportAudit(
  store: KyselyStore,
  write: (text: string) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<AuditAnchor> {
  const head = await readAuditHead(store, signal);
  for (let after = 0; after < head.seq;) {
    const limit = Math.min(PAGE, head.seq - after);
    const page = await store.audit.list({ after, limit }, { signal });
    if (page.length === 0) break;
    await write(page.map((entry) => `${JSON.stringify({ type: 'entry', ...entry })}\n`).join(''));
    after = page[page.length - 1]?.seq ?? head.seq;
  }
  const anchor: AuditAnchor = { type: 'head', ...head };
  await write(`${JSON.stringify(anchor)}\n`);
  return anchor;
}

/** The head line of an export (its last non-empty line); undefined when there is none. */
export function parseAnchor(text: string): AuditAnchor | undefined {
  const last = text.trimEnd().split('\n').at(-1);
  let value: unknown;
  try {
    value = JSON.parse(last ?? '');
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, seq, hash, mac, keyedFrom } = value as Record<string, unknown>;
  if (type !== 'head' || !Number.isSafeInteger(seq) || (seq as number) < 0) return undefined;
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return undefined;
  return {
    type,
    seq: seq as number,
    hash,
    mac: typeof mac === 'string' ? mac : null,
    keyedFrom: Number.isSafeInteger(keyedFrom) ? (keyedFrom as number) : null,
  };
}

/**
 * Whether the chain still holds the anchored entry unchanged. With the chain's
 * links verified, that entry's hash vouches for every entry before it: this
 * catches a truncation or rewrite below the anchor even by someone holding
 * the key.
 */
export async function checkAnchor(
  store: Pick<Store, 'audit'>,
  anchor: Pick<AuditHead, 'seq' | 'hash'>,
  signal?: AbortSignal,
): Promise<AnchorCheck> {
  if (anchor.seq === 0) return { ok: true, seq: 0 };
  const [entry] = await store.audit.list({ after: anchor.seq - 1, limit: 1 }, { signal });
  if (entry?.seq !== anchor.seq) return { ok: false, brokenAt: anchor.seq, reason: 'truncated' };
  if (entry.hash !== anchor.hash) return { ok: false, brokenAt: anchor.seq, reason: 'rewritten' };
  return { ok: true, seq: anchor.seq };
}
