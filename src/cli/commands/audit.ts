import { open, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  checkAnchor,
  exportAudit,
  parseAnchor,
  type AnchorCheck,
  type AuditAnchor,
} from '../../store/audit-export.js';
import { loadAuditKey } from '../../store/audit-key.js';
import type { KyselyStore } from '../../store/kysely-store.js';
import { openKyselyStore } from '../../store/open-store.js';
import { readAuditHead, sealAudit } from '../../store/operations/audit-head.js';
import type { AuditVerification } from '../../store/records.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle, type Style } from '../style.js';
import { storeUrlFor, type StoreCommandOptions } from './token.js';

export type AuditVerifyOptions = StoreCommandOptions & { anchor?: string };
export type AuditExportOptions = StoreCommandOptions & { out?: string };

/**
 * `cadre audit verify [--anchor FILE]`: walks the chain under the audit key;
 * with an export's head as anchor, also checks the chain still holds it.
 * Exit 0 when intact, 1 with the first broken seq.
 */
export async function auditVerifyCommand(options: AuditVerifyOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  try {
    const anchor = options.anchor === undefined ? undefined : await readAnchor(options.anchor, io);
    if (anchor === null) {
      io.stderr(`${style.red('error')} ${options.anchor} is not a readable audit export\n`);
      return EXIT.failed;
    }
    return await withAuditStore(options, io, async (store, keyed) => {
      const chain = reportChain(await store.audit.verify(), keyed, io, style);
      if (anchor === undefined) return chain;
      return Math.max(chain, reportAnchor(await checkAnchor(store, anchor), io, style));
    });
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

/** `cadre audit export [--out FILE]`: the chain as NDJSON, its head last, to anchor elsewhere. */
export async function auditExportCommand(options: AuditExportOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  try {
    return await withAuditStore(options, io, async (store, keyed) => {
      // Anchoring a broken chain would vouch for the break.
      const result = await store.audit.verify();
      if (!result.ok && result.reason !== 'unkeyed') return reportChain(result, true, io, style);
      if (!result.ok)
        io.stderr(
          keyed
            ? `${style.yellow('warning')} the chain is unkeyed (written before the key): keep this export safe\n`
            : `${style.yellow('warning')} no audit key: only the chain's links were checked\n`,
        );
      if (options.out === undefined) {
        await exportAudit(store, io.stdout);
        return EXIT.ok;
      }
      const file = await open(resolve(io.cwd, options.out), 'w');
      try {
        const head = await exportAudit(store, async (text) => void (await file.write(text)));
        io.stderr(`Exported ${head.seq} entries to ${options.out} (head ${head.hash}).\n`);
      } finally {
        await file.close();
      }
      return EXIT.ok;
    });
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

/**
 * `cadre audit seal`: keys a chain written before the key existed, from its
 * next entry on, after checking it. Never automatic: it would equally bless
 * a chain an attacker rewrote with the public recipe.
 */
export async function auditSealCommand(options: StoreCommandOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  try {
    return await withAuditStore(options, io, async (store, keyed, auditKey) => {
      if (auditKey === undefined) return reportChain(unkeyed, keyed, io, style);
      const head = await readAuditHead(store);
      const result = await store.audit.verify();
      if (result.ok) {
        io.stdout(`${style.green('ok')} nothing to seal: ${result.count} entries, keyed\n`);
        return EXIT.ok;
      }
      if (result.reason !== 'unkeyed') return reportChain(result, keyed, io, style);
      const sealed = await sealAudit({ db: store.db, dialect: store.dialect, auditKey }, head);
      io.stdout(
        `${style.green('ok')} audit chain keyed from seq ${sealed.keyedFrom}; entries 1-${head.seq} are anchored under the key\n`,
      );
      return EXIT.ok;
    });
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

/** The head line of an export; null when the file is missing or is no export. */
async function readAnchor(file: string, io: CliIO): Promise<AuditAnchor | null> {
  const text = await readFile(resolve(io.cwd, file), 'utf8').catch(() => undefined);
  return (text === undefined ? undefined : parseAnchor(text)) ?? null;
}

const unkeyed: AuditVerification = { ok: false, brokenAt: 1, reason: 'unkeyed' };

/** Opens the store with the audit key if there is one: commands that only read never create a key. */
async function withAuditStore(
  options: StoreCommandOptions,
  io: CliIO,
  work: (store: KyselyStore, keyed: boolean, auditKey: Buffer | undefined) => Promise<number>,
): Promise<number> {
  const auditKey = await loadAuditKey({ env: io.env, cwd: io.cwd, create: false });
  const store = await openKyselyStore({ url: storeUrlFor(options, io), auditKey });
  try {
    return await work(store, auditKey !== undefined, auditKey);
  } finally {
    await store.close();
  }
}

function reportChain(result: AuditVerification, keyed: boolean, io: CliIO, style: Style): number {
  if (result.ok) {
    io.stdout(`${style.green('ok')} audit chain intact: ${result.count} entries\n`);
    return EXIT.ok;
  }
  if (result.reason === 'unkeyed')
    io.stdout(
      keyed
        ? `${style.red('unkeyed')} audit chain links hold but no MAC covers them (written before the key): run \`cadre audit seal\` once\n`
        : `${style.red('unkeyed')} no audit key (CADRE_AUDIT_KEY, CADRE_AUDIT_KEY_FILE or .cadre/audit.key): the chain cannot be verified\n`,
    );
  else
    io.stdout(
      `${style.red('broken')} audit chain broken at seq ${result.brokenAt} (${result.reason})\n`,
    );
  return EXIT.failed;
}

function reportAnchor(check: AnchorCheck, io: CliIO, style: Style): number {
  if (check.ok) {
    io.stdout(`${style.green('ok')} anchored head (seq ${check.seq}) is still in the chain\n`);
    return EXIT.ok;
  }
  io.stdout(
    check.reason === 'truncated'
      ? `${style.red('broken')} anchored entry ${check.brokenAt} is gone: the chain was truncated\n`
      : `${style.red('broken')} entry ${check.brokenAt} differs from the anchor: the chain was rewritten\n`,
  );
  return EXIT.failed;
}
