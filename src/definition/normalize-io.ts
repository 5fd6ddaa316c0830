import { isPlainObject } from './describe-value.js';
import { errorAt, type IssuePath, type PendingIssue } from './issues.js';
import { checkJsonSchema } from './json-schema-check.js';
import { resolveOutputSchema, type SchemaContext } from './output-schema.js';
import type { RawInputConfig, RawOutputConfig } from './raw-definition-schema.js';
import { pickSpelling } from './spelling.js';
import type { InputArgument, InputConfig, OutputConfig } from './types.js';

/** Input, output-argument and output names become JSON property / parameter names and `${}` placeholders. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkIdentifiers(
  names: readonly string[],
  at: IssuePath,
  what: string,
  issues: PendingIssue[],
): void {
  for (const name of names) {
    if (!IDENTIFIER.test(name)) {
      issues.push(
        errorAt(
          [...at, name],
          `${what} "${name}" must be an identifier (letters, digits and _, not starting with a digit)`,
          'key',
        ),
      );
    }
  }
}

export interface NormalizedInput {
  config?: InputConfig;
  /** Names a query may use as `${name}`. */
  names: string[];
}

export function normalizeInput(
  raw: RawInputConfig | undefined,
  at: IssuePath,
  issues: PendingIssue[],
): NormalizedInput {
  // Without inputConfig an agent takes one string input, `prompt`, so a bare prompt always fits.
  if (!raw) return { names: ['prompt'] };
  const schemaField = pickSpelling<unknown>(raw, ['inputSchema', 'input_schema'], at, issues);
  if (raw.inputs !== undefined && schemaField) {
    issues.push(
      errorAt(
        [...at, schemaField.key],
        'use either "inputs" or an input JSON Schema, not both',
        'key',
      ),
    );
  }
  if (schemaField) {
    const schemaAt = [...at, schemaField.key];
    let schema: unknown = schemaField.value;
    if (typeof schema === 'string') {
      try {
        schema = JSON.parse(schema);
      } catch (error) {
        issues.push(
          errorAt(
            schemaAt,
            `input schema JSON text does not parse: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
        return { names: [] };
      }
    }
    if (!isPlainObject(schema)) {
      issues.push(errorAt(schemaAt, 'expected a JSON Schema mapping'));
      return { names: [] };
    }
    issues.push(...checkJsonSchema(schema, schemaAt));
    if (schema.type !== undefined && schema.type !== 'object') {
      issues.push(
        errorAt(
          [...schemaAt, 'type'],
          'an input schema describes the inputs object: its type must be "object"',
        ),
      );
    }
    const names = isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
    checkIdentifiers(names, [...schemaAt, 'properties'], 'input', issues);
    return { config: { inputSchema: schema }, names };
  }
  const inputs = raw.inputs ?? {};
  checkIdentifiers(Object.keys(inputs), [...at, 'inputs'], 'input', issues);
  const normalized: Record<string, InputArgument> = {};
  for (const [name, argument] of Object.entries(inputs)) {
    normalized[name] = {
      type: argument.type,
      ...(argument.description !== undefined ? { description: argument.description } : {}),
      ...(argument.required !== undefined ? { required: argument.required } : {}),
    };
  }
  return { config: { inputs: normalized }, names: Object.keys(inputs) };
}

export function normalizeOutput(
  raw: RawOutputConfig | undefined,
  at: IssuePath,
  ctx: SchemaContext,
  issues: PendingIssue[],
): OutputConfig | undefined {
  if (!raw) return undefined;
  const out: OutputConfig = {};
  const name = pickSpelling<string>(raw, ['outputName', 'output_name'], at, issues);
  if (name) {
    if (IDENTIFIER.test(name.value)) out.outputName = name.value;
    else
      issues.push(
        errorAt(
          [...at, name.key],
          `output name "${name.value}" must be an identifier (letters, digits and _)`,
        ),
      );
  }
  if (raw.description !== undefined) out.description = raw.description;
  if (raw.schema !== undefined) {
    const resolved = resolveOutputSchema(raw.schema, [...at, 'schema'], ctx);
    issues.push(...resolved.issues);
    if (resolved.schema) out.schema = resolved.schema;
  }
  if (raw.outputs !== undefined) {
    checkIdentifiers(Object.keys(raw.outputs), [...at, 'outputs'], 'output', issues);
    out.outputs = { ...raw.outputs };
  }
  return out;
}
