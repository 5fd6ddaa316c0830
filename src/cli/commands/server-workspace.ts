import { mkdir, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../errors/index.js';
import { STATE_FOLDER } from '../../tools/builtin/workspace-path.js';
import type { CliIO } from '../cli-io.js';

/** The folder a server's agents work in, and the server's own files they must never reach. */
export interface ServerWorkspace {
  workspace: string;
  protectedPaths: string[];
}

/** Where `cadre serve` puts its agents' files when `--workspace` names no folder. */
export const DEFAULT_SERVER_WORKSPACE = path.join(STATE_FOLDER, 'workspace');

const SQLITE_SIDE_FILES = ['', '-wal', '-shm', '-journal'];

/**
 * A server's agents do not work in the folder the server was started from:
 * that folder holds `.cadre/` (the database with every user's threads, the
 * audit key, the policy). By default they get `.cadre/workspace`, created on
 * first start; everything else in `.cadre/`, the SQLite database wherever it
 * lies and the audit key file are protected from every tool.
 */
export async function serverWorkspace(
  io: Pick<CliIO, 'cwd' | 'env'>,
  option: string | undefined,
  storeUrl: string,
): Promise<ServerWorkspace> {
  const chosen = path.resolve(io.cwd, option ?? DEFAULT_SERVER_WORKSPACE);
  if (option === undefined) await mkdir(chosen, { recursive: true, mode: 0o700 });
  const workspace = await realpath(chosen).catch((error: unknown) => {
    throw new ConfigError(`The workspace ${chosen} does not exist.`, { cause: error });
  });
  const stateFolder = path.join(await realpath(io.cwd), STATE_FOLDER);
  const protectedPaths = [
    ...(await stateEntriesBesides(stateFolder, workspace)),
    ...sqliteFiles(storeUrl),
    ...auditKeyFile(io),
  ];
  return { workspace, protectedPaths: [...new Set(protectedPaths)] };
}

/** Every entry of the state folder but the one holding the workspace. */
async function stateEntriesBesides(stateFolder: string, workspace: string): Promise<string[]> {
  const names = await readdir(stateFolder).catch(() => [] as string[]);
  const holdsWorkspace = (entry: string) =>
    workspace === entry || workspace.startsWith(`${entry}${path.sep}`);
  // The usual files are named even before they exist: a database may be created after start-up.
  const expected = ['cadre.db', 'audit.key', 'policy.yaml', 'agents', 'tools', 'runs'];
  return [...new Set([...names, ...expected])]
    .map((name) => path.join(stateFolder, name))
    .filter((entry) => !holdsWorkspace(entry))
    .concat(workspace.startsWith(`${stateFolder}${path.sep}`) ? [] : [stateFolder]);
}

function sqliteFiles(storeUrl: string): string[] {
  if (/^[a-z][a-z0-9+.-]*:/i.test(storeUrl) && !storeUrl.startsWith('file:')) return [];
  const file = storeUrl.replace(/^file:/, '');
  if (file === ':memory:' || file === '') return [];
  return SQLITE_SIDE_FILES.map((suffix) => path.resolve(`${file}${suffix}`));
}

function auditKeyFile(io: Pick<CliIO, 'cwd' | 'env'>): string[] {
  const named = io.env.CADRE_AUDIT_KEY_FILE?.trim();
  return named ? [path.resolve(io.cwd, named)] : [];
}
