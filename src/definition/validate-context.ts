import path from 'node:path';
import type { ValidateOptions } from './load-options.js';
import { servedByDefault } from './model-names.js';
import type { SchemaRegistry } from './schema-registry.js';
import { DEFAULT_KNOWN_TOOLS } from './tool-names.js';
import type { DefinitionSource } from './types.js';

/** Everything the checks need, with defaults applied once. */
export interface ValidateContext {
  source: DefinitionSource;
  /** Claude Code / Gemini CLI / ADK: lenient about tools, names and models. */
  foreign: boolean;
  knownTools: readonly string[];
  toolAliases: Readonly<Record<string, string>>;
  isKnownAgent: (name: string) => boolean;
  /** MCP servers of the project, which any definition may reference. */
  mcpServers: ReadonlySet<string>;
  schemas?: SchemaRegistry;
  baseDir: string;
  cwd: string;
  strict: boolean;
  servesModel: (model: string) => boolean;
  /** The project files left out as untrusted, said beside an unknown tool. */
  untrustedHint?: string;
}

export function validateContext(options: ValidateOptions): ValidateContext {
  const cwd = options.cwd ?? process.cwd();
  const source = options.source ?? { format: 'object' as const };
  const baseDir =
    options.baseDir ?? (source.file ? path.dirname(path.resolve(cwd, source.file)) : cwd);
  return {
    source,
    foreign: source.foreign !== undefined,
    knownTools: options.knownTools ?? DEFAULT_KNOWN_TOOLS,
    toolAliases: options.toolAliases ?? {},
    isKnownAgent: options.isKnownAgent ?? (() => false),
    mcpServers: new Set(options.mcpServers ?? []),
    ...(options.schemas ? { schemas: options.schemas } : {}),
    baseDir,
    cwd,
    strict: options.strict ?? false,
    servesModel: options.servesModel ?? servedByDefault,
    ...(options.untrustedHint ? { untrustedHint: options.untrustedHint } : {}),
  };
}

/** How issues name the file: relative to cwd, as users typed it. */
export const displayFile = (file: string | undefined, cwd: string): string | undefined =>
  file === undefined ? undefined : path.relative(cwd, path.resolve(cwd, file)) || file;
