import type { AgentKind, AgentKinds } from '../../contracts/agent-kind.js';
import type { AgentDefinition } from '../../definition/types.js';
import { ConfigError } from '../../errors/cadre-error.js';
import type { ExecutionOptions } from './run-options.js';

/**
 * The kinds every run knows. Their code loads when such a definition first
 * runs, not with every plain run.
 */
const BUILTIN_KINDS: AgentKinds = Object.freeze({
  router: async (definition, setting) =>
    (await import('../router/router-kind.js')).routerKind(definition, setting),
  workflow: async (definition, setting) =>
    (await import('../workflow/workflow-kind.js')).workflowKind(definition, setting),
});

/** The kind a definition runs as, by name; undefined for a plain (model loop) definition. */
export function kindNameOf(definition: AgentDefinition): string | undefined {
  if (definition.kind !== undefined) return definition.kind;
  if (definition.router) return 'router';
  if (definition.workflow) return 'workflow';
  if (definition.remote) return 'remote';
  return undefined;
}

/** The registered kind of that name: the run's own first (children get their root's), then the built-in ones. */
export function kindOf(definition: AgentDefinition, options: ExecutionOptions): AgentKind {
  const name = kindNameOf(definition) ?? '';
  const registered = options.services?.agentKinds ?? options.adapters?.agentKinds;
  // Own names only: `kind: constructor` must not reach Object.prototype.
  const kind =
    (registered && Object.hasOwn(registered, name) ? registered[name] : undefined) ??
    (Object.hasOwn(BUILTIN_KINDS, name) ? BUILTIN_KINDS[name] : undefined);
  if (kind) return kind;
  if (name === 'remote' && definition.kind === undefined)
    throw new ConfigError(
      `${definition.name} is a remote agent, and this run was given no remote agent kind (run it with cadre's run verbs).`,
    );
  const known = [...new Set([...Object.keys(registered ?? {}), ...Object.keys(BUILTIN_KINDS)])];
  const where = definition.source?.file ? `${definition.source.file}: ` : '';
  throw new ConfigError(
    `${where}kind: "${name}" of agent ${definition.name} is not an agent kind this run knows (${known.join(', ')}); register it in adapters.agentKinds.`,
  );
}
