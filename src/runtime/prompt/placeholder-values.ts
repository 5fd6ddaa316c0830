import { inputAliases } from '../../definition/placeholder-style.js';
import type { AgentDefinition } from '../../definition/types.js';

/**
 * What a prompt's placeholders read: the run's state (ADK `output_key`
 * answers of earlier agents), input aliases, then the inputs, which win on a
 * name clash.
 */
export function placeholderValues(
  definition: Pick<AgentDefinition, 'promptConfig' | 'source' | 'inputConfig'>,
  inputs: Readonly<Record<string, unknown>>,
  state: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const aliases = inputAliases(definition);
  // Most definitions have no aliases: the state, then the inputs.
  if (Object.keys(aliases).length === 0) return { ...state, ...inputs };
  const aliased = Object.entries(aliases)
    .filter(([, input]) => Object.hasOwn(inputs, input))
    .map(([alias, input]) => [alias, inputs[input]] as const);
  return { ...state, ...Object.fromEntries(aliased), ...inputs };
}
