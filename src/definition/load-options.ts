import type { ValidationIssue } from '../errors/validation-error.js';
import type { FileGate } from '../contracts/file-gate.js';
import type { SchemaRegistry } from './schema-registry.js';
import type { AgentDefinition, DefinitionSource } from './types.js';

export interface LoadOptions {
  /** Tools this install has (default: the built-ins ls, read_file, glob, grep, write_file, edit_file). */
  knownTools?: readonly string[];
  /**
   * Other names a tool may be granted by → the tool's name: a code tool's
   * declared `aliases`, such as the ADK Python function path it stands for
   * (`agents.studio_tools.read_file`).
   */
  toolAliases?: Readonly<Record<string, string>>;
  /** Agents that may be granted like tools (names in toolConfig.tools); never added by `*` or an omitted list. */
  isKnownAgent?: (name: string) => boolean;
  /** MCP servers of the project (`.cadre/mcp.json`) that any definition may reference. */
  mcpServers?: readonly string[];
  /** Output schemas definitions may reference by name. */
  schemas?: SchemaRegistry;
  /** The user's folder, for user-level settings (`~/.gemini/settings.json`, `~/.claude.json`); default the home directory ($HOME). */
  home?: string;
  /**
   * False: a Gemini CLI or Claude Code agent gets its project's `.gemini/settings.json` or
   * `.claude/settings.json` servers only, never the user's `~/.gemini/settings.json` or
   * `~/.claude.json`. The server sets it: an operator's personal MCP servers (and the tokens
   * in them) must not reach the runs of everyone who signs in.
   */
  userSettings?: boolean;
  /** Issue file paths are shown relative to this (default: process.cwd()). */
  cwd?: string;
  /** Enforce the spec's required fields (inputConfig, outputConfig, promptConfig, toolConfig): `cadre validate --strict`. */
  strict?: boolean;
  /** Whether a configured provider serves a model id; foreign files fall back to the run default otherwise. */
  servesModel?: (model: string) => boolean;
  /** ADK files whose sub-agents are being loaded, outermost first (guards against cycles). */
  adkAncestors?: readonly string[];
  /**
   * False: TS / JS definition modules are refused, never imported. For files
   * read only because they sit beside the one named: importing runs their code.
   */
  modules?: boolean;
  /**
   * Workspace trust: agent modules, project settings files and the stdio MCP
   * servers of agent files load only when it allows them. Absent: all load.
   */
  gate?: FileGate;
  /** Said beside an unknown tool or MCP server: the project files left out as untrusted. */
  untrustedHint?: string;
}

export interface ValidateOptions extends LoadOptions {
  source?: DefinitionSource;
  /** Directory for relative schema file paths (default: the source file's directory, else cwd). */
  baseDir?: string;
}

export interface LoadResult {
  definition: AgentDefinition;
  /** Non-fatal issues: tools dropped from foreign files, model fallbacks, renamed agents. */
  warnings: ValidationIssue[];
}
