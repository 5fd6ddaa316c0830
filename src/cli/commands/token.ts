import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAuditKey } from '../../store/audit-key.js';
import { DEFAULT_TOKEN_CACHE } from '../../server/http/token-cache.js';
import { DEFAULT_SQLITE_PATH, openStore } from '../../store/open-store.js';
import { MIN_TOKEN_PREFIX } from '../../store/token-prefix.js';
import type { ListedToken } from '../../store/records.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle, type Style } from '../style.js';
import type { DbFlag } from '../options/server-options.js';
import type { JsonFlag } from '../options/output-options.js';

export type StoreCommandOptions = DbFlag;

/** The store a command opens: the flag, the environment, then the default under `io.cwd`. */
export function storeUrlFor(options: StoreCommandOptions, io: CliIO): string {
  const url = options.db || io.env.CADRE_DATABASE_URL || DEFAULT_SQLITE_PATH;
  // A plain file path is relative to the command's folder; URLs and :memory: pass through.
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : resolve(io.cwd, url);
}

/** A SQLite file that does not exist yet (never a server URL, never `:memory:`). */
const missingFile = (url: string): boolean =>
  !/^[a-z][a-z0-9+.-]*:/i.test(url) && url !== ':memory:' && !existsSync(url);

/** Refuses a command whose SQLite file does not exist: opening it would create an empty one. */
function noDatabase(url: string, io: CliIO, style: Style, create?: string): number {
  io.stderr(
    `${style.red('error')} no database at ${url}: start \`cadre serve\` in this folder first (it creates it)` +
      ` or name the server's database with --db or CADRE_DATABASE_URL` +
      `${create ? `, or pass ${create} to create it here` : ''}\n`,
  );
  return EXIT.setup;
}

/** The database as a person may read it: a server URL without its password. */
export function describeStore(url: string): string {
  if (!/^postgres(ql)?:/i.test(url)) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'a PostgreSQL database';
  }
}

export type TokenCreateOptions = StoreCommandOptions & { user: string; createDb?: boolean };
export type TokenListOptions = StoreCommandOptions & JsonFlag & { user?: string };

/**
 * `cadre token create --user NAME`: prints a new API token once; only its
 * hash is stored. The database is named on stderr; a SQLite file that does
 * not exist is refused unless `--create-db` asks for it, as a token written
 * to a stray database is refused (401) by the server running elsewhere.
 */
export async function tokenCreateCommand(options: TokenCreateOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const name = options.user.trim();
  if (!name || name.length > 100) {
    io.stderr(`${style.red('error')} --user needs a name of 1 to 100 characters\n`);
    return EXIT.failed;
  }
  const url = storeUrlFor(options, io);
  if (!options.createDb && missingFile(url)) return noDatabase(url, io, style, '--create-db');
  try {
    const auditKey = await loadAuditKey({ env: io.env, cwd: io.cwd });
    const store = await openStore({ url, auditKey });
    try {
      const user = await store.auth.ensureUser(name);
      const { token } = await store.auth.createToken(user.id);
      // The token alone on stdout, so `$(cadre token create ...)` captures it.
      io.stdout(`${token}\n`);
      io.stderr(
        `Token for ${user.name} in ${describeStore(url)}: shown once, store it now. Send it as 'Authorization: Bearer <token>'.\n`,
      );
      return EXIT.ok;
    } finally {
      await store.close();
    }
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

/** `cadre token list [--user NAME] [--json]`: every token, by a prefix of its hash; never a secret. */
export async function tokenListCommand(options: TokenListOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const name = options.user?.trim();
  if (name === '') {
    io.stderr(`${style.red('error')} --user needs a name\n`);
    return EXIT.failed;
  }
  const url = storeUrlFor(options, io);
  if (missingFile(url)) return noDatabase(url, io, style);
  try {
    const store = await openStore({ url });
    try {
      const tokens = await store.auth.listTokens(name === undefined ? {} : { userName: name });
      if (options.json) {
        io.stdout(`${JSON.stringify(tokens.map(tokenJson), null, 2)}\n`);
        return EXIT.ok;
      }
      if (tokens.length === 0) {
        io.stderr(
          name ? `No tokens for ${name}.\n` : 'No tokens yet: cadre token create --user NAME\n',
        );
        return EXIT.ok;
      }
      io.stdout(tokenTable(tokens, style));
      return EXIT.ok;
    } finally {
      await store.close();
    }
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

/** `cadre token revoke <id-or-prefix>`: the token stops signing in; its row stays for the list. */
export async function tokenRevokeCommand(
  idOrPrefix: string,
  options: StoreCommandOptions,
  io: CliIO,
): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const wanted = idOrPrefix.trim();
  if (/^[0-9a-f]+$/i.test(wanted) && wanted.length < MIN_TOKEN_PREFIX) {
    io.stderr(
      `${style.red('error')} '${wanted}' is too short: give at least ${MIN_TOKEN_PREFIX} characters of the ID from 'cadre token list'\n`,
    );
    return EXIT.failed;
  }
  const url = storeUrlFor(options, io);
  if (missingFile(url)) return noDatabase(url, io, style);
  try {
    const store = await openStore({ url });
    try {
      const result = await store.auth.revokeToken(wanted);
      if (!result.ok && result.reason === 'not_found') {
        io.stderr(`${style.red('error')} no token has the id or prefix '${wanted}'\n`);
        return EXIT.failed;
      }
      if (!result.ok) {
        const names = result.matches.map((t) => `${t.hashPrefix} (${t.userName})`).join(', ');
        io.stderr(
          `${style.red('error')} '${wanted}' matches more than one token: ${names}; give more characters\n`,
        );
        return EXIT.failed;
      }
      const { token } = result;
      if (result.alreadyRevoked) {
        io.stdout(
          `Token ${token.hashPrefix} (${token.userName}) was already revoked at ${token.revokedAt}.\n`,
        );
        return EXIT.ok;
      }
      io.stdout(`Revoked token ${token.hashPrefix} (${token.userName}).\n`);
      // A server trusts a token it checked recently without asking the database again.
      io.stderr(
        `A running cadre serve may go on accepting it for up to ${DEFAULT_TOKEN_CACHE.ttlMs / 1000} s (its token cache).\n`,
      );
      return EXIT.ok;
    } finally {
      await store.close();
    }
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

function tokenJson(token: ListedToken) {
  return {
    id: token.id,
    hashPrefix: token.hashPrefix,
    user: token.userName,
    createdAt: token.createdAt,
    lastUsedAt: token.lastUsedAt ?? null,
    revoked: token.revokedAt !== undefined,
    revokedAt: token.revokedAt ?? null,
  };
}

/** Plain columns (times in UTC to the second), so the table also reads well through grep. */
function tokenTable(tokens: readonly ListedToken[], style: Style): string {
  const time = (iso: string | undefined) => (iso ? `${iso.slice(0, 19).replace('T', ' ')}Z` : '-');
  const header = ['ID', 'USER', 'CREATED', 'LAST USED', 'STATUS'];
  const rows = tokens.map((t) => [
    t.hashPrefix,
    t.userName,
    time(t.createdAt),
    time(t.lastUsedAt),
    t.revokedAt ? 'revoked' : 'active',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const body = rows.map((r, i) => (tokens[i]?.revokedAt ? style.dim(line(r)) : line(r)));
  return `${[style.bold(line(header)), ...body].join('\n')}\n`;
}
