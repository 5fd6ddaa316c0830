import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
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
  /**
   * A file being run or checked: the YAML, JSON and Markdown definitions
   * beside it are read (so such files can call each other), but code
   * modules there are never imported; only declared folders run code.
   */
  besides?: string;
  builtins?: readonly AgentEntry[];
  /** Tool names the definitions may use besides agents (built-ins, `task`, ...). */
  knownTools: readonly string[];
  load?: Omit<LoadOptions, 'knownTools' | 'isKnownAgent' | 'cwd'>;
}

export interface Discovery {
  registry: AgentRegistry;
  /** Skipped files and overrides, each naming the file. */
  diagnostics: string[];
  /** Only the skipped files (invalid, or code that threw on import), each naming the file. */
  skipped: string[];
  /** The same files, absolute, with their issues: a command reports only those it was asked about. */
  skippedFiles: SkippedFile[];
  warnings: ValidationIssue[];
}

/** A definition file left out, and why. */
export interface SkippedFile {
  file: string;
  issues: readonly ValidationIssue[];
  /** As `skipped` words it: `skipped agents/x.yaml: …`. */
  line: string;
}

/** Claude Code's and Gemini CLI's agent folders, in a project and in the user's home. */
const FOREIGN_FOLDERS = ['.claude/agents', '.gemini/agents'] as const;

/**
 * Finds agents with a clear precedence: project `.cadre/agents`, `./agents`,
 * `.claude/agents` and `.gemini/agents` over the same in the user's home
 * (`~/.cadre/agents` first) over built-ins. An invalid file (or
 * a module that throws on import) is skipped and named in `skipped`; agents may name each other (and themselves) as tools.
 */
export async function discoverAgents(options: DiscoverOptions): Promise<Discovery> {
  const diagnostics: string[] = [];
  const warnings: ValidationIssue[] = [];
  const skipped: string[] = [];
  const skippedFiles: SkippedFile[] = [];
  const registry = new AgentRegistry((message) => diagnostics.push(message));
  const home = options.home ?? homedir();
  type Folder = { dir: string; origin: AgentOrigin; modules: boolean };
  const folders: Folder[] = [
    ...(options.folders ?? []).map((dir) => ({
      dir: resolve(options.cwd, dir),
      origin: 'project' as const,
      modules: true,
    })),
    ...(options.besides
      ? [
          {
            dir: dirname(resolve(options.cwd, options.besides)),
            origin: 'project' as const,
            modules: false,
          },
        ]
      : []),
    { dir: join(options.cwd, '.cadre/agents'), origin: 'project', modules: true },
    { dir: join(options.cwd, 'agents'), origin: 'project', modules: true },
    // Claude Code's and Gemini CLI's agent folders hold Markdown (data, never imported);
    // an MCP server such a file starts is still gated by workspace trust when it loads.
    ...FOREIGN_FOLDERS.map((dir) => ({
      dir: join(options.cwd, dir),
      origin: 'project' as const,
      modules: false,
    })),
    { dir: join(home, '.cadre/agents'), origin: 'user', modules: true },
    ...FOREIGN_FOLDERS.map((dir) => ({
      dir: join(home, dir),
      origin: 'user' as const,
      modules: false,
    })),
  ];
  const existing: Folder[] = [];
  // Loaded here, not with the package entry, which exports this function.
  const { stat } = await import('node:fs/promises');
  for (const folder of folders) {
    // A folder named twice is read once; it runs code if any naming of it is a declared folder.
    const earlier = existing.find((known) => known.dir === folder.dir);
    if (earlier) earlier.modules ||= folder.modules;
    else if ((await stat(folder.dir).catch(() => undefined))?.isDirectory())
      existing.push({ ...folder });
  }

  const base = { ...options.load, knownTools: options.knownTools, cwd: options.cwd, home };
  // First pass learns every agent's name, so definitions can grant each other (or themselves).
  const names = new Set(
    (options.builtins ?? []).map((entry) =>
      entry.kind === 'definition' ? entry.definition.name : entry.name,
    ),
  );
  for (const folder of existing) {
    const { loaded } = await loadDefinitionsFromDir(folder.dir, {
      ...base,
      modules: folder.modules,
      isKnownAgent: () => true,
    });
    for (const { definition } of loaded) names.add(definition.name);
  }
  for (const folder of existing) {
    const { loaded, failed } = await loadDefinitionsFromDir(folder.dir, {
      ...base,
      modules: folder.modules,
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
      const line = `skipped ${relative(options.cwd, file)}: ${error.issues.map(formatIssue).join('; ')}`;
      skipped.push(line);
      skippedFiles.push({ file: resolve(file), issues: error.issues, line });
    }
  }
  for (const entry of options.builtins ?? []) registry.register({ entry, origin: 'builtin' });
  return { registry, diagnostics: [...diagnostics, ...skipped], skipped, skippedFiles, warnings };
}
