import type { JsonSchema } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { AgentInputView } from '../run-service-types.js';

/**
 * An agent's structured inputs as form fields, whichever way the definition
 * wrote them (the spec's `inputs` map or a JSON Schema); undefined for an
 * agent that takes a prompt.
 */
export function inputFields(definition: AgentDefinition): AgentInputView[] | undefined {
  const config = definition.inputConfig;
  if (config?.inputs)
    return Object.entries(config.inputs).map(([name, arg]) => ({
      name,
      type: arg.type,
      required: arg.required === true,
      ...(arg.description ? { description: arg.description } : {}),
    }));
  if (config?.inputSchema) return schemaFields(config.inputSchema);
  return undefined;
}

function schemaFields(schema: JsonSchema): AgentInputView[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === 'string') : [],
  );
  return Object.entries(properties).map(([name, property]) => {
    const field = isObject(property) ? property : {};
    return {
      name,
      type: typeOf(field),
      required: required.has(name),
      ...(typeof field.description === 'string' ? { description: field.description } : {}),
    };
  });
}

/** The spec's type names: `string[]` for a list of scalars, `object` when unsure. */
function typeOf(schema: Record<string, unknown>): string {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'array') {
    const items = isObject(schema.items) ? schema.items.type : undefined;
    return typeof items === 'string' && items !== 'object' && items !== 'array'
      ? `${items}[]`
      : 'array';
  }
  if (typeof type === 'string') return type;
  return Array.isArray(schema.enum) ? 'string' : 'object';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
