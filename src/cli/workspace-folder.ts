import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';
import type { CliIO } from './cli-io.js';

/** `--workspace DIR` (default the current folder) as a real path; a missing folder is a setup error. */
export async function workspaceFolder(io: CliIO, dir: string | undefined): Promise<string> {
  return realpath(resolve(io.cwd, dir ?? '.')).catch(() => {
    throw new ConfigError(`Workspace folder not found: ${dir ?? io.cwd}`);
  });
}
