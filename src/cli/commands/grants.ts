import { existsSync } from 'node:fs';
import { openStore } from '../../store/open-store.js';
import type { NamedGrant } from '../../store/records.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle, type Style } from '../style.js';
import { matchGrantId, MIN_GRANT_ID_PART, shortGrantIds } from '../grant-ids.js';
import { describeStore, storeUrlFor, type StoreCommandOptions } from './token.js';
import type { JsonFlag } from '../options/output-options.js';

/**
 * Opens the database `cadre token` and `cadre serve` use; a SQLite file that
 * is not there is refused rather than created empty (it would list nothing,
 * and hide that the server's database is elsewhere).
 */
async function withStore(
  options: StoreCommandOptions,
  io: CliIO,
  style: Style,
  work: (store: Awaited<ReturnType<typeof openStore>>, where: string) => Promise<number>,
): Promise<number> {
  const url = storeUrlFor(options, io);
  const where = describeStore(url);
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url) && url !== ':memory:' && !existsSync(url)) {
    io.stderr(
      `${style.red('error')} no database at ${where}: run this where \`cadre serve\` runs, or name its database with --db or CADRE_DATABASE_URL\n`,
    );
    return EXIT.setup;
  }
  try {
    const store = await openStore({ url });
    try {
      return await work(store, where);
    } finally {
      await store.close();
    }
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

export type GrantsListOptions = StoreCommandOptions & JsonFlag & { user?: string };

/** `cadre grants list [--user NAME] [--json]`: every "always allow" grant, by user and agent. */
export function grantsListCommand(options: GrantsListOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const name = options.user?.trim();
  return withStore(options, io, style, async (store, where) => {
    const grants = await store.grants.listAll(name ? { userName: name } : {});
    if (options.json) {
      io.stdout(`${JSON.stringify(grants.map(grantJson), null, 2)}\n`);
      return EXIT.ok;
    }
    if (grants.length === 0) {
      io.stderr(`No grants${name ? ` for ${name}` : ''} in ${where}.\n`);
      return EXIT.ok;
    }
    io.stderr(`Grants in ${where}:\n`);
    io.stdout(grantTable(grants, style));
    return EXIT.ok;
  });
}

/** `cadre grants revoke ID`: the agent asks again before its next such call. ID may be a unique head or tail of the id. */
export function grantsRevokeCommand(
  id: string,
  options: StoreCommandOptions,
  io: CliIO,
): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const wanted = id.trim();
  return withStore(options, io, style, async (store, where) => {
    const match = matchGrantId(await store.grants.listAll({}), wanted);
    switch (match.kind) {
      case 'too_short':
        io.stderr(
          `${style.red('error')} '${wanted}' is too short: give at least ${MIN_GRANT_ID_PART} characters of the ID from 'cadre grants list'\n`,
        );
        return EXIT.failed;
      case 'none':
        io.stderr(
          `${style.red('error')} no grant has the id '${wanted}' in ${where} (see 'cadre grants list')\n`,
        );
        return EXIT.failed;
      case 'ambiguous': {
        const names = match.matches.map((g) => `${g.id} (${g.agent} ${g.tool})`).join(', ');
        io.stderr(
          `${style.red('error')} '${wanted}' matches more than one grant: ${names}; give more characters\n`,
        );
        return EXIT.failed;
      }
      case 'one':
        break;
      default:
        match satisfies never;
    }
    const revoked = await store.grants.revokeAny(match.grant.id);
    if (!revoked) {
      io.stderr(`${style.red('error')} the grant '${match.grant.id}' was revoked meanwhile\n`);
      return EXIT.failed;
    }
    io.stdout(
      `Revoked: ${revoked.agent} may no longer call ${revoked.tool} for ${whom(revoked)} without asking ${revoked.userName}.\n`,
    );
    return EXIT.ok;
  });
}

const whom = (grant: NamedGrant): string => (grant.recipient === '*' ? 'anyone' : grant.recipient);

function grantJson(grant: NamedGrant) {
  return {
    id: grant.id,
    user: grant.userName,
    agent: grant.agent,
    tool: grant.tool,
    recipient: grant.recipient,
    createdAt: grant.createdAt,
    setBy: grant.setBy ?? null,
  };
}

function grantTable(grants: readonly NamedGrant[], style: Style): string {
  const short = shortGrantIds(grants.map((g) => g.id));
  const rows = grants.map((g) => [
    short.get(g.id) ?? g.id,
    g.userName,
    g.agent,
    g.tool,
    whom(g),
    `${g.createdAt.slice(0, 16).replace('T', ' ')} UTC${g.setBy ? ` by ${g.setBy}` : ''}`,
  ]);
  const header = ['ID', 'USER', 'AGENT', 'TOOL', 'RECIPIENT', 'SET'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${style.dim(line(header))}\n${rows.map(line).join('\n')}\n`;
}
