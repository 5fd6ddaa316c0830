import type { ExecutionOptions, RunAdapters } from '../runtime/loop/run-options.js';
import { mcpToolSource } from '../mcp/client/mcp-hub.js';

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
  toolSource: mcpToolSource,
};

/** `options` with the default adapters, unless they name their own. */
export const withRunAdapters = <T extends Pick<ExecutionOptions, 'adapters'>>(options: T): T =>
  options.adapters ? options : { ...options, adapters: runAdapters };
