import * as z from 'zod';
import type { JsonSchema } from '../model/types.js';
import { rawDefinitionSchema } from './raw-definition-schema.js';
import { CODE_ONLY } from './raw-fields.js';

export const DEFINITION_SCHEMA_ID = 'urn:cadre:schema:agent-definition:v1';

const isCodeOnly = (node: unknown): boolean =>
  typeof node === 'object' &&
  node !== null &&
  (node as Record<string, unknown>)[CODE_ONLY] === true;

/** Drops what only TS definitions can hold (functions, Zod schemas) from the exported schema. */
function stripCodeOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripCodeOnly);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      const kept = Object.entries(value).filter(([, property]) => !isCodeOnly(property));
      out[key] = Object.fromEntries(
        kept.map(([name, property]) => [name, stripCodeOnly(property)]),
      );
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out[key] = value.filter((branch) => !isCodeOnly(branch)).map(stripCodeOnly);
    } else {
      out[key] = stripCodeOnly(value);
    }
  }
  return out;
}

/**
 * JSON Schema (draft 2020-12) of the YAML / JSON authoring format, generated
 * from the same Zod schema the loader checks with. Point editors at it:
 * `# yaml-language-server: $schema=./agent-definition.schema.json`.
 */
export function definitionJsonSchema(): JsonSchema {
  const generated = z.toJSONSchema(rawDefinitionSchema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
  });
  const { $schema, ...rest } = stripCodeOnly(generated) as Record<string, unknown>;
  return {
    $schema,
    $id: DEFINITION_SCHEMA_ID,
    title: 'Cadre agent definition',
    ...rest,
    description:
      "A declarative LLM agent (Gemini Agent Definition spec 0.1 with Cadre extensions). Fields load in the spec's camelCase or the .proto's snake_case.",
  };
}
