import { mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../errors/index.js';
import type { WorkspacePlan, WorkspaceScope } from '../../server/core/run-workspace.js';
import { isInsideWorkspace, STATE_FOLDER } from '../../tools/builtin/workspace-path.js';
import type { CliIO } from '../cli-io.js';

/** Where a server's runs work, what none of them may reach, and the start-up line saying so. */
export interface ServerWorkspaces {
  plan: Extract<WorkspacePlan, { kind: 'per-user' }>;
  protectedPaths: string[];
  description: string;
}

/** Where `cadre serve` makes its users' workspaces when `--workspace` names no folder. */
export const DEFAULT_WORKSPACE_BASE = path.join(STATE_FOLDER, 'workspaces');

const SQLITE_SIDE_FILES = ['', '-wal', '-shm', '-journal'];

/**
 * A server's agents never work in the folder the server was started from
 * (it holds `.env`, `.cadre/` with the database of every user's threads,
 * the audit key, the policy). Each user gets a folder of their own (or one
 * per thread) under `.cadre/workspaces` or `--workspace DIR`, made on first
 * use. The server's whole folder, the base of the workspaces, the SQLite
 * database wherever it lies and the audit key file are masked: tools see
 * only the run's own workspace, whatever appears in those folders later.
 */
export async function serverWorkspaces(
  io: Pick<CliIO, 'cwd' | 'env'>,
  option: string | undefined,
  scope: WorkspaceScope,
  storeUrl: string,
): Promise<ServerWorkspaces> {
  const serverFolder = await realpath(io.cwd);
  // Masking `/` would hide the whole system from every command.
  if (serverFolder === path.parse(serverFolder).root)
    throw new ConfigError('Start cadre serve from a folder of its own, not from the root folder.');
  const chosen = path.resolve(io.cwd, option ?? DEFAULT_WORKSPACE_BASE);
  if (option === undefined) await mkdir(chosen, { recursive: true, mode: 0o700 });
  const base = await realpath(chosen).catch((error: unknown) => {
    throw new ConfigError(`The workspace ${chosen} does not exist.`, { cause: error });
  });
  if (!(await stat(base)).isDirectory())
    throw new ConfigError(`The workspace ${chosen} is not a folder.`);
  if (isInsideWorkspace(base, serverFolder))
    throw new ConfigError(
      `The workspace ${chosen} holds the server's own folder; name a folder inside or beside it.`,
    );
  const protectedPaths = [serverFolder, base, ...sqliteFiles(storeUrl), ...auditKeyFile(io)];
  const each = scope === 'user' ? 'user' : 'thread';
  return {
    plan: { kind: 'per-user', base, scope },
    protectedPaths: [...new Set(protectedPaths)],
    description:
      `Workspace per ${each} under ${base} (made on first use; ` +
      `tools see only their own, never ${serverFolder})`,
  };
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
