import { ValidationError } from '../../errors/validation-error.js';
import type { JsonSchema } from '../../model/types.js';
import type { AgentDefinition, InputArgument } from '../../definition/types.js';
import type { SchemaValidator } from '../completion/schema-validator.js';

/** Without an inputConfig an agent takes one string, `prompt` (DESIGN §1). */
export const PROMPT_INPUT = 'prompt';

const PROMPT_ONLY: JsonSchema = {
  type: 'object',
  properties: { [PROMPT_INPUT]: { type: 'string', description: "The user's message." } },
  required: [PROMPT_INPUT],
};

/** The JSON Schema of a definition's inputs, whichever way they were written. */
export function inputsJsonSchema(definition: AgentDefinition): JsonSchema {
  const config = definition.inputConfig;
  if (config?.inputSchema) return config.inputSchema;
  if (!config?.inputs) return PROMPT_ONLY;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, arg] of Object.entries(config.inputs)) {
    properties[name] = argumentSchema(arg);
    if (arg.required) required.push(name);
  }
  return { type: 'object', properties, required };
}

function argumentSchema(arg: InputArgument): JsonSchema {
  const described = (schema: JsonSchema): JsonSchema =>
    arg.description ? { ...schema, description: arg.description } : schema;
  if (arg.type.endsWith('[]'))
    return described({ type: 'array', items: { type: arg.type.slice(0, -2) } });
  return described({ type: arg.type });
}

/**
 * Checks inputs before any model call; every problem is reported at once as
 * `inputs.<name>: …`.
 */
export function validateInputs(
  definition: AgentDefinition,
  inputs: Readonly<Record<string, unknown>>,
  validator: SchemaValidator,
): Record<string, unknown> {
  const check = validator.derivedFrom(definition, () => inputsJsonSchema(definition));
  const outcome = check(inputs);
  if (outcome.ok) return { ...inputs };
  throw new ValidationError(
    outcome.errors.map((error) => {
      const [field = '', ...rest] = error.split(': ');
      return { path: field === '(root)' ? 'inputs' : `inputs.${field}`, message: rest.join(': ') };
    }),
  );
}
