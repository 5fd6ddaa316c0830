import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../errors/cadre-error.js';
import { loadDefinition } from '../../definition/lazy-load.js';
import type { AgentDefinition } from '../../definition/types.js';

export const JUDGE_FILE = 'examples/agents/judge.yaml';

/** The shipped judge: found from this module up to the package root (src/ and dist/src/ alike). */
export function defaultJudgeFile(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, JUDGE_FILE);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}

export async function loadJudgeDefinition(file = defaultJudgeFile()): Promise<AgentDefinition> {
  if (!file) throw new ConfigError(`No judge definition found (${JUDGE_FILE}); pass --judge FILE.`);
  return (await loadDefinition(file, { knownTools: [] })).definition;
}
