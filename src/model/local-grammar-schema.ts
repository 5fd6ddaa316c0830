/**
 * A tool's JSON Schema narrowed to what node-llama-cpp turns into a grammar
 * (type, properties, required, items, enum, const, oneOf, string lengths and
 * date formats). The grammar only makes a call parse and fit the shape; the
 * executor still validates the arguments against the full schema, so a
 * constraint dropped here (a pattern, a minimum) is checked there.
 */
import type { GbnfJsonSchema } from 'node-llama-cpp';
import type { JsonSchema } from './types.js';

/** Any JSON value, for a schema (or a part) the grammar cannot express. */
const ANY: GbnfJsonSchema = {
  oneOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'array' },
    { type: 'object', additionalProperties: true },
  ],
};

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date']);
/** Deeper than this takes any value. */
const MAX_DEPTH = 24;

type Scalar = 'string' | 'number' | 'integer' | 'boolean' | 'null';
type Literal = string | number | boolean | null;

export function grammarSchema(schema: JsonSchema): GbnfJsonSchema {
  return convert(schema, defsOf(schema), 0);
}

function convert(
  schema: unknown,
  defs: Record<string, unknown>,
  depth: number,
  refs: readonly string[] = [],
): GbnfJsonSchema {
  if (!isRecord(schema) || depth > MAX_DEPTH) return ANY;
  const description =
    typeof schema.description === 'string' ? { description: schema.description } : {};
  if (typeof schema.$ref === 'string') {
    const target = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(schema.$ref)?.[1];
    // A recursive definition is cut at its first repeat: a grammar per level would grow without end.
    if (target === undefined || !Object.hasOwn(defs, target) || refs.includes(target)) return ANY;
    return convert(defs[target], defs, depth + 1, [...refs, target]);
  }
  if (isLiteral(schema.const)) return { const: schema.const, ...description };
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter(isLiteral);
    return values.length > 0 ? { enum: values, ...description } : ANY;
  }
  const union = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(union) && union.length > 0)
    return { oneOf: union.map((s) => convert(s, defs, depth + 1, refs)), ...description };
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 1) {
    const scalars = types.filter((t): t is Scalar => typeof t === 'string' && SCALARS.has(t));
    const others = types.filter((t) => t === 'object' || t === 'array');
    if (others.length === 0 && scalars.length > 0) return { type: scalars, ...description };
    return {
      oneOf: [
        ...(scalars.length > 0 ? [{ type: scalars }] : []),
        ...others.map((t) => convert({ ...schema, type: t }, defs, depth + 1, refs)),
      ],
      ...description,
    };
  }
  const type = types[0];
  switch (type) {
    case 'object':
      return objectSchema(schema, defs, depth, refs, description);
    case 'array':
      return {
        type: 'array',
        ...(schema.items !== undefined
          ? { items: convert(schema.items, defs, depth + 1, refs) }
          : {}),
        ...(Array.isArray(schema.prefixItems)
          ? { prefixItems: schema.prefixItems.map((s) => convert(s, defs, depth + 1, refs)) }
          : {}),
        ...count('minItems', schema.minItems),
        ...count('maxItems', schema.maxItems),
        ...description,
      };
    case 'string':
      if (typeof schema.format === 'string' && FORMATS.has(schema.format))
        return {
          type: 'string',
          format: schema.format as 'date-time' | 'time' | 'date',
          ...description,
        };
      return {
        type: 'string',
        ...count('minLength', schema.minLength),
        ...count('maxLength', schema.maxLength),
        ...description,
      };
    case 'integer':
      // The library's integer grammar admits values its own check then rejects, failing
      // the whole turn; as a number the call parses and the executor checks integer-ness.
      return { type: 'number', ...description };
    case 'number':
    case 'boolean':
    case 'null':
      return { type, ...description };
    default:
      // No type: properties still say it is an object.
      return isRecord(schema.properties)
        ? objectSchema(schema, defs, depth, refs, description)
        : ANY;
  }
}

function objectSchema(
  schema: Record<string, unknown>,
  defs: Record<string, unknown>,
  depth: number,
  refs: readonly string[],
  description: { description?: string },
): GbnfJsonSchema {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  const required = Array.isArray(schema.required)
    ? schema.required.filter((n): n is string => typeof n === 'string' && names.includes(n))
    : [];
  const extra = schema.additionalProperties;
  // Extra keys only for a free-form map: a small model given the choice wanders off.
  const additionalProperties: GbnfJsonSchema | boolean = isRecord(extra)
    ? convert(extra, defs, depth + 1, refs)
    : names.length === 0 && extra !== false;
  return {
    type: 'object',
    properties: Object.fromEntries(
      names.map((n) => [n, convert(properties[n], defs, depth + 1, refs)]),
    ),
    required,
    additionalProperties,
    ...description,
  };
}

const count = <K extends string>(key: K, value: unknown): { [P in K]?: number } =>
  (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? { [key]: value } : {}) as {
    [P in K]?: number;
  };

function defsOf(schema: JsonSchema): Record<string, unknown> {
  const defs = schema.$defs ?? schema.definitions;
  return isRecord(defs) ? defs : {};
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isLiteral = (value: unknown): value is Literal =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);
