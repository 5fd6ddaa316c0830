import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { formatIssue, type ValidationIssue } from '../errors/validation-error.js';
import type { LoadOptions } from '../definition/load-definition.js';
import { loadDefinitionsFromDir } from '../definition/lazy-load.js';
import { AgentRegistry, type AgentOrigin } from './agent-registry.js';
import type { AgentEntry } from '../contracts/agent.js';

export interface DiscoverOptions {
  cwd: string;
  /** User folder (default the home directory): agents in `<home>/.cadre/agents`. */
  home?: string;
  /** Extra folders searched before the defaults (e.g. the agent-format `tool_root`). */
  folders?: readonly string[];
  builtins?: readonly AgentEntry[];
  /** Tool names the definitions may use besides agents (built-ins, `task`, ...). */
  knownTools: readonly string[];
  load?: Omit<LoadOptions, 'knownTools' | 'isKnownAgent' | 'cwd'>;
}

export interface Discovery {
  registry: AgentRegistry;
  /** Skipped files and overrides, each naming the file. */
  diagnostics: string[];
  warnings: ValidationIssue[];
}

/**
 * Finds agents with a clear precedence: project `.cadre/agents` and
 * `./agents` over user `~/.cadre/agents` over built-ins. An invalid file is
 * skipped with a diagnostic; agents may name each other (and themselves) as tools.
 */
export async function discoverAgents(options: DiscoverOptions): Promise<Discovery> {
  const diagnostics: string[] = [];
  const warnings: ValidationIssue[] = [];
  const registry = new AgentRegistry((message) => diagnostics.push(message));
  const home = options.home ?? homedir();
  const folders: Array<{ dir: string; origin: AgentOrigin }> = [
    ...(options.folders ?? []).map((dir) => ({
      dir: resolve(options.cwd, dir),
      origin: 'project' as const,
    })),
    { dir: join(options.cwd, '.cadre/agents'), origin: 'project' },
    { dir: join(options.cwd, 'agents'), origin: 'project' },
    { dir: join(home, '.cadre/agents'), origin: 'user' },
  ];
  const existing: typeof folders = [];
  const seen = new Set<string>();
  for (const folder of folders) {
    if (seen.has(folder.dir)) continue; // a folder named twice is read once
    seen.add(folder.dir);
    if ((await stat(folder.dir).catch(() => undefined))?.isDirectory()) existing.push(folder);
  }

  const base = { ...options.load, knownTools: options.knownTools, cwd: options.cwd };
  // First pass learns every agent's name, so definitions can grant each other (or themselves).
  const names = new Set(
    (options.builtins ?? []).map((entry) =>
      entry.kind === 'definition' ? entry.definition.name : entry.name,
    ),
  );
  for (const folder of existing) {
    const { loaded } = await loadDefinitionsFromDir(folder.dir, {
      ...base,
      isKnownAgent: () => true,
    });
    for (const { definition } of loaded) names.add(definition.name);
  }
  for (const folder of existing) {
    const { loaded, failed } = await loadDefinitionsFromDir(folder.dir, {
      ...base,
      isKnownAgent: (name) => names.has(name),
    });
    for (const { definition, warnings: w } of loaded) {
      warnings.push(...w);
      registry.register({
        entry: { kind: 'definition', definition },
        origin: folder.origin,
        ...(definition.source?.file ? { file: relative(options.cwd, definition.source.file) } : {}),
      });
    }
    for (const { file, error } of failed) {
      diagnostics.push(
        `skipped ${relative(options.cwd, file)}: ${error.issues.map(formatIssue).join('; ')}`,
      );
    }
  }
  for (const entry of options.builtins ?? []) registry.register({ entry, origin: 'builtin' });
  return { registry, diagnostics, warnings };
}
