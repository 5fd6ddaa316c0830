import type { AgentInputView } from '../../server/run-service-types.js';
import type { JsonSchema } from '../../model/types.js';
import type { AgentTool } from './agent-tools.js';

/**
 * An agent's structured inputs, as the service lists them, as a tool's
 * input schema. Types are the spec's names (`string[]` a list of strings);
 * the service checks values against the definition's own schema.
 */
export function inputViewSchema(inputs: readonly AgentInputView[]): AgentTool['inputSchema'] {
  const properties: Record<string, JsonSchema> = {};
  for (const input of inputs) {
    const type = input.type.endsWith('[]')
      ? { type: 'array', items: { type: input.type.slice(0, -2) } }
      : { type: input.type };
    properties[input.name] = input.description ? { ...type, description: input.description } : type;
  }
  const required = inputs.filter((input) => input.required).map((input) => input.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
