import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';
import type { CliIO } from './cli-io.js';

/**
 * `--workspace DIR` (default the current folder) as a real path; a missing
 * folder is a setup error. The home folder, a folder that holds it, or `/`
 * become a workspace only when named: started there by accident, every key
 * and shell setting of the person would be within the agents' reach.
 */
export async function workspaceFolder(io: CliIO, dir: string | undefined): Promise<string> {
  const workspace = await realpath(path.resolve(io.cwd, dir ?? '.')).catch(() => {
    throw new ConfigError(`Workspace folder not found: ${dir ?? io.cwd}`);
  });
  if (dir === undefined) {
    const home = await realpath(io.env.HOME || homedir()).catch(() => undefined);
    const reason = homeWorkspaceReason(workspace, home);
    if (reason)
      throw new ConfigError(
        `Cadre will not make ${reason} the agents' workspace unasked: it holds your keys and ` +
          'shell settings. Run it from a project folder, or name the folder with ' +
          `--workspace ${workspace} to mean it (its dotfiles stay hidden from commands).`,
      );
  }
  return workspace;
}

/** Why a folder is too wide to be a workspace by default, or undefined when it is fine. */
export function homeWorkspaceReason(
  workspace: string,
  home: string | undefined,
): string | undefined {
  if (workspace === path.parse(workspace).root) return `the root folder ${workspace}`;
  if (home === undefined) return undefined;
  if (workspace === home) return `your home folder ${home}`;
  const rel = path.relative(workspace, home);
  if (!rel.startsWith('..') && !path.isAbsolute(rel))
    return `${workspace}, which holds your home folder ${home},`;
  return undefined;
}
