import type { SchemaValidator, ValidateFn } from '../../runtime/completion/schema-validator.js';
import type { OutputSchema } from '../../definition/types.js';
import type { Scorer } from '../types.js';
import { scored } from './score-result.js';

/**
 * The output validates against a JSON Schema: a given one, or the agent's
 * own output schema. A text output is parsed as JSON first (chat agents
 * asked to answer in JSON).
 */
export function jsonSchemaScorer(schema: OutputSchema, validator: SchemaValidator): Scorer {
  const validate: ValidateFn =
    schema.kind === 'zod'
      ? validator.forZod(schema.schema)
      : validator.forJsonSchema(schema.schema);
  return {
    name: 'json_schema',
    score: ({ result }) => {
      const check = validate(parseIfJson(result.output));
      return Promise.resolve(
        scored(check.ok ? 1 : 0, check.ok ? undefined : check.errors.slice(0, 3).join('; ')),
      );
    },
  };
}

function parseIfJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
