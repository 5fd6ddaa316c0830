import type { AgentRegistry } from '../../agents/agent-registry.js';
import { meansRunDefault } from '../../definition/model-names.js';
import type { AgentDefinition } from '../../definition/types.js';
import { resolveModelClient } from '../../model/resolve-model.js';
import { FALLBACK_MODEL } from '../../runtime/loop/run-options.js';

/**
 * When no agent the page offers has a model it can reach (its provider's key
 * is not set): a warning saying why, to show at start rather than on the
 * first message. Undefined when one can. Makes clients only: no request is sent.
 */
export function noReachableModel(
  agents: AgentRegistry,
  defaultAgent: AgentDefinition,
  defaultModel: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): string | undefined {
  const definitions = [
    defaultAgent,
    ...agents
      .list()
      .flatMap((agent) =>
        agent.entry.kind === 'definition' && agent.origin !== 'builtin'
          ? [agent.entry.definition]
          : [],
      ),
  ];
  const models = new Set(
    definitions.map((definition) => {
      const own = definition.modelConfig?.model;
      return own && !meansRunDefault(own) ? own : (defaultModel ?? FALLBACK_MODEL);
    }),
  );
  const reasons: string[] = [];
  for (const model of models) {
    try {
      resolveModelClient(model, env, { cwd });
      return undefined;
    } catch (error) {
      reasons.push(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
    }
  }
  return `no agent can reach its model, so every run will fail until one can: ${reasons.join(' ')}`;
}
