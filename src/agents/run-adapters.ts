import type { ExecutionOptions, RunAdapters } from '../runtime/loop/run-options.js';
import type { SourcedTools, ToolSource, ToolSourceOptions } from '../tools/tool-source.js';
// The hub's code loads when a run tree first needs an MCP server's tools.
import type { McpHub } from '../mcp/client/mcp-hub.js';

/**
 * A run tree's MCP servers, as McpHub serves them once the first grant of
 * an MCP tool loads it: most run trees grant none, and every run has one.
 */
class McpOnFirstUse implements ToolSource {
  private hub: Promise<McpHub> | undefined;
  private closed = false;

  constructor(private readonly options: ToolSourceOptions) {}

  projectServers(): string[] {
    return Object.keys(this.options.servers ?? {});
  }

  toolsFor(...args: Parameters<ToolSource['toolsFor']>): Promise<SourcedTools> {
    this.hub ??= import('../mcp/client/mcp-hub.js').then(({ McpHub }) => {
      const hub = new McpHub(this.options);
      // A tree that ended while the hub loaded starts no server, as a closed hub does.
      if (this.closed) void hub.close();
      return hub;
    });
    return this.hub.then((hub) => hub.toolsFor(...args));
  }

  close(): Promise<void> | undefined {
    this.closed = true;
    return this.hub?.then((hub) => hub.close());
  }
}

/**
 * The adapters a run gets unless its caller brings its own: MCP servers'
 * tools and remote (A2A) agents. The A2A client loads when a remote
 * definition first runs, not with every run.
 */
export const runAdapters: RunAdapters = {
  agentKinds: {
    remote: async (definition, setting) =>
      (await import('../a2a/remote-kind.js')).remoteKind(definition, setting),
  },
  toolSource: (options) => new McpOnFirstUse(options),
};

/** `options` with the default adapters, unless they name their own. */
export const withRunAdapters = <T extends Pick<ExecutionOptions, 'adapters'>>(options: T): T =>
  options.adapters ? options : { ...options, adapters: runAdapters };
