import { ValidationError } from '../errors/validation-error.js';
import { inputsJsonSchema } from '../runtime/prompt/inputs.js';
import type { AgentDefinition } from '../definition/types.js';
import type { EvalRow } from './types.js';

/**
 * The inputs a row's run gets. `inputs` is used as it is; a text `input`
 * goes to the agent's only input (its `prompt` for a chat agent), or to
 * its only required one.
 */
export function rowInputs(definition: AgentDefinition, row: EvalRow): Record<string, unknown> {
  if (row.inputs) return { ...row.inputs };
  const schema = inputsJsonSchema(definition);
  const names = Object.keys((schema.properties ?? {}) as Record<string, unknown>);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const target = names.length === 1 ? names[0] : required.length === 1 ? required[0] : undefined;
  if (!target) {
    throw new ValidationError([
      {
        file: row.source,
        path: 'input',
        message: `${definition.name} takes several inputs (${names.join(', ')}); give this row "inputs": {…}`,
      },
    ]);
  }
  return { [target]: row.input ?? '' };
}

/** The row's task as text, for judges and reports. */
export function rowTask(row: EvalRow): string {
  if (row.input !== undefined) return row.input;
  const values = Object.values(row.inputs ?? {});
  if (values.length === 1 && typeof values[0] === 'string') return values[0];
  return JSON.stringify(row.inputs ?? {});
}
