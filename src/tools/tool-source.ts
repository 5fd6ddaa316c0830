import type { JsonSchema } from '../model/types.js';
import type { McpServerConfig } from '../definition/mcp-server-config.js';
import type { McpReference } from '../definition/mcp-tool-names.js';
import type { Tool } from './types.js';

/** Tools a source offers for some grants, with what could not be offered, said once per run. */
export interface SourcedTools {
  tools: Tool[];
  warnings: string[];
}

/**
 * Where a run tree's tools beyond its pool come from (MCP servers). The
 * runtime knows only this; the MCP client implements it and is passed in
 * from above. One per run tree, closed when the tree's root run ends.
 */
export interface ToolSource {
  /** Server names every agent may reference without declaring them. */
  projectServers(): string[];
  /**
   * The tools `grants` name, from the definition's own servers or the
   * project's. `checkSchema` throws on an input schema that cannot be compiled.
   */
  toolsFor(
    grants: readonly McpReference[],
    ownServers: Readonly<Record<string, McpServerConfig>> | undefined,
    checkSchema: (schema: JsonSchema) => void,
    signal: AbortSignal,
  ): Promise<SourcedTools>;
  close(): Promise<void> | undefined;
}

export interface ToolSourceOptions {
  /** Servers every agent of the project may use (`.cadre/mcp.json`); a definition's own win by name. */
  servers?: Readonly<Record<string, McpServerConfig>>;
  /** Where `${VAR}` in configs is read from. */
  env: NodeJS.ProcessEnv;
  /** Where stdio servers start unless their config says otherwise (the workspace). */
  cwd: string;
}

/** Makes a run tree's tool source when its root run starts. */
export type ToolSourceFactory = (options: ToolSourceOptions) => ToolSource;

/**
 * The source of a run given none: it knows the project's server names but
 * starts no server. A class, not closures: every run holds one (~0.3 KB less
 * per waiting run), and it keeps only the servers, not the options.
 */
class NoToolSource implements ToolSource {
  constructor(private readonly servers: ToolSourceOptions['servers']) {}

  projectServers(): string[] {
    return Object.keys(this.servers ?? {});
  }

  toolsFor(grants: readonly McpReference[]): Promise<SourcedTools> {
    return Promise.resolve({
      tools: [],
      warnings: [...new Set(grants.map((grant) => grant.server))].map(
        (server) =>
          `MCP server "${server}" cannot start: this run was given no MCP tool source; its tools are left out`,
      ),
    });
  }

  close(): undefined {
    return undefined;
  }
}

export const noToolSource: ToolSourceFactory = (options) => new NoToolSource(options.servers);
