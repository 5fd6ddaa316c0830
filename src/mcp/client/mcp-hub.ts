import type { JsonSchema } from '../../model/types.js';
import type { Tool } from '../../tools/types.js';
import type { SourcedTools, ToolSource, ToolSourceOptions } from '../../tools/tool-source.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { McpServerConfig } from '../../definition/mcp-server-config.js';
import { grantCovers, type McpReference } from '../../definition/mcp-tool-names.js';
// The connection and tool code load when a server is first needed, not with every run.
import type { McpConnection } from './mcp-connection.js';

export type McpHubOptions = ToolSourceOptions;

export type McpTools = SourcedTools;

/**
 * The MCP servers of one run tree. A server starts the first time an agent
 * of the tree needs it, is shared by every agent after that (one process
 * per server and config), and stops when the tree's root run ends.
 */
export class McpHub implements ToolSource {
  // Made when a server first starts: most run trees start none, and every run has a hub.
  private started: Map<string, Promise<McpConnection>> | undefined;
  private offered: WeakMap<McpConnection, Map<string, Tool>> | undefined;
  /** Ends starts still under way when the tree ends; no one caller's cancellation does. Made on the first start. */
  private lifetime: AbortController | undefined;
  private closed = false;

  constructor(private readonly options: McpHubOptions) {}

  /** Server names every agent may reference without declaring them. */
  projectServers(): string[] {
    return Object.keys(this.options.servers ?? {});
  }

  /**
   * The tools `grants` name, from the definition's own servers or the
   * project's. `checkSchema` throws on an input schema that cannot be
   * compiled: such a tool is left out with a warning rather than offered
   * with arguments nobody can validate.
   */
  async toolsFor(
    grants: readonly McpReference[],
    ownServers: Readonly<Record<string, McpServerConfig>> | undefined,
    checkSchema: (schema: JsonSchema) => void,
    signal: AbortSignal,
  ): Promise<McpTools> {
    const tools: Tool[] = [];
    const warnings: string[] = [];
    const servers = [...new Set(grants.map((grant) => grant.server))];
    const connections = await Promise.all(
      servers.map(async (server) => {
        const config = ownServers?.[server] ?? this.options.servers?.[server];
        if (!config) {
          warnings.push(`MCP server "${server}" is not configured; its tools are left out`);
          return undefined;
        }
        try {
          return {
            server,
            config,
            connection: await untilAborted(this.connect(server, config), signal),
          };
        } catch (error) {
          warnings.push(
            `MCP server "${server}" could not start (${error instanceof Error ? error.message : String(error)}); its tools are left out`,
          );
          return undefined;
        }
      }),
    );
    const named = new Map<string, string>();
    for (const entry of connections) {
      if (!entry) continue;
      const { mcpTool } = await import('./mcp-tool.js');
      const { server, config, connection } = entry;
      // The server's include / exclude lists bound every grant, a grant of the whole server included.
      const allowed = (tool: string): boolean =>
        (!config.includeTools || config.includeTools.includes(tool)) &&
        !config.excludeTools?.includes(tool);
      const covered = connection.tools.filter(
        (listed) =>
          grants.some((grant) => grantCovers(grant, server, listed.name)) && allowed(listed.name),
      );
      for (const grant of grants) {
        if (grant.server !== server || grant.tool === '*') continue;
        if (!connection.tools.some((listed) => listed.name === grant.tool))
          warnings.push(`MCP server "${server}" has no tool "${grant.tool}"`);
        else if (!allowed(grant.tool))
          warnings.push(
            `MCP tool "${server}/${grant.tool}" is left out by the server's includeTools / excludeTools`,
          );
      }
      for (const listed of covered) {
        const tool = this.toolOf(listed.name, connection, () =>
          mcpTool(server, listed, connection, config.trustReadOnlyHints === true),
        );
        // Names are made safe for function calling, so two tools can end up with one name.
        const earlier = named.get(tool.name);
        if (earlier !== undefined) {
          warnings.push(
            `MCP tool "${server}/${listed.name}" would be named ${tool.name}, like "${earlier}"; left out`,
          );
          continue;
        }
        named.set(tool.name, `${server}/${listed.name}`);
        try {
          checkSchema(tool.inputSchema);
          tools.push(tool);
        } catch (error) {
          warnings.push(
            `MCP tool "${server}/${listed.name}" has an input schema that cannot be used (${error instanceof Error ? error.message : String(error)}); left out`,
          );
        }
      }
    }
    return { tools, warnings };
  }

  /**
   * Stops every server this tree started; later `toolsFor` calls start none.
   * Undefined when none was started (most runs): nothing to wait for.
   */
  close(): Promise<void> | undefined {
    this.closed = true;
    if (!this.started || this.started.size === 0) return undefined;
    // Aborting builds a DOMException (a stack trace): only worth it when a server is starting or running.
    this.lifetime?.abort();
    const started = [...this.started.values()];
    this.started.clear();
    return Promise.all(
      started.map((pending) =>
        pending.then((connection) => connection.close()).catch(() => undefined),
      ),
    ).then(() => undefined);
  }

  private connect(server: string, config: McpServerConfig): Promise<McpConnection> {
    if (this.closed) return Promise.reject(new Error('the run has ended'));
    const key = `${server}\u0000${canonicalJson(config)}`;
    const started = (this.started ??= new Map());
    let pending = started.get(key);
    if (!pending) {
      const lifetime = (this.lifetime ??= new AbortController());
      pending = import('./mcp-connection.js').then(({ connectServer }) =>
        connectServer(server, config, {
          env: this.options.env,
          cwd: this.options.cwd,
          signal: lifetime.signal,
        }),
      );
      // A failed start is not kept: the next agent that needs the server tries again.
      pending.catch(() => started.delete(key));
      started.set(key, pending);
    }
    return pending;
  }

  /** One Tool object per server tool, so declarations built once are reused across agents. */
  private toolOf(name: string, connection: McpConnection, build: () => Tool): Tool {
    const offered = (this.offered ??= new WeakMap());
    let byName = offered.get(connection);
    if (!byName) offered.set(connection, (byName = new Map()));
    let tool = byName.get(name);
    if (!tool) byName.set(name, (tool = build()));
    return tool;
  }
}

/** Waits for `promise`, or stops waiting (not the work) when `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    promise.then(
      (value) => (signal.removeEventListener('abort', stop), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', stop), reject(error)),
    );
  });
}
