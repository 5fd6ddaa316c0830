import { resolve } from 'node:path';
import { loadAuditKey } from '../../store/audit-key.js';
import { DEFAULT_SQLITE_PATH, openStore } from '../../store/open-store.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle } from '../style.js';

export interface StoreCommandOptions {
  /** `--db URL`; else CADRE_DATABASE_URL; else `.cadre/cadre.db` under the working folder. */
  db?: string;
}

/** The store a command opens: the flag, the environment, then the default under `io.cwd`. */
export function storeUrlFor(options: StoreCommandOptions, io: CliIO): string {
  const url = options.db || io.env.CADRE_DATABASE_URL || DEFAULT_SQLITE_PATH;
  // A plain file path is relative to the command's folder; URLs and :memory: pass through.
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : resolve(io.cwd, url);
}

/** `cadre token create --user NAME`: prints a new API token once; only its hash is stored. */
export async function tokenCreateCommand(
  options: StoreCommandOptions & { user: string },
  io: CliIO,
): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const name = options.user.trim();
  if (!name || name.length > 100) {
    io.stderr(`${style.red('error')} --user needs a name of 1 to 100 characters\n`);
    return EXIT.failed;
  }
  try {
    const auditKey = await loadAuditKey({ env: io.env, cwd: io.cwd });
    const store = await openStore({ url: storeUrlFor(options, io), auditKey });
    try {
      const user = await store.ensureUser(name);
      const { token } = await store.createToken(user.id);
      // The token alone on stdout, so `$(cadre token create ...)` captures it.
      io.stdout(`${token}\n`);
      io.stderr(
        `Token for ${user.name}: shown once, store it now. Send it as 'Authorization: Bearer <token>'.\n`,
      );
      return EXIT.ok;
    } finally {
      await store.close();
    }
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}
