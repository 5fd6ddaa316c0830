import path from 'node:path';
import * as z from 'zod';
import { didYouMean } from './did-you-mean.js';
import { errorAt, type IssuePath, type PendingIssue } from './issues.js';
import { checkJsonSchema } from './json-schema-check.js';
import { isPlainObject } from './describe-value.js';
import { isZodLike } from './zod-like.js';
import type { SchemaRegistry } from './schema-registry.js';
import { loadSchemaFile } from './schema-file.js';
import type { OutputSchema, ZodLike } from './types.js';

export interface SchemaContext {
  schemas?: SchemaRegistry;
  /** Directory schema file paths are relative to (the definition's own). */
  baseDir: string;
  cwd: string;
}

export interface ResolvedSchema {
  schema?: OutputSchema;
  issues: PendingIssue[];
}

const FILE_PATTERN = /\.(json|ya?ml)$/i;

/** A Zod 4 schema also gets its JSON Schema, which tool declarations need. */
function fromZod(schema: ZodLike, origin?: string): OutputSchema {
  let jsonSchema: Record<string, unknown> | undefined;
  if (schema instanceof z.ZodType || (typeof schema === 'object' && '_zod' in schema)) {
    try {
      jsonSchema = z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any' }) as Record<
        string,
        unknown
      >;
    } catch {
      jsonSchema = undefined; // transforms etc.: validation still works through safeParse
    }
  }
  return {
    kind: 'zod',
    schema,
    ...(origin ? { origin } : {}),
    ...(jsonSchema ? { jsonSchema } : {}),
  };
}

function fromRegistry(
  name: string,
  at: IssuePath,
  registry: SchemaRegistry | undefined,
): ResolvedSchema {
  const found = registry?.get(name);
  if (!found) {
    const names = registry?.names() ?? [];
    const known =
      names.length > 0
        ? `; registered: ${names.join(', ')}`
        : '; no schemas are registered (pass a SchemaRegistry as options.schemas)';
    return { issues: [errorAt(at, `unknown schema "${name}"${didYouMean(name, names)}${known}`)] };
  }
  if (found.kind === 'zod') return { schema: fromZod(found.schema, found.origin), issues: [] };
  const issues = checkJsonSchema(found.schema, at).map((i) => ({
    ...i,
    path: at,
    message: `registered schema "${name}": ${i.message}`,
  }));
  return { schema: found, issues };
}

/**
 * `outputConfig.schema` in any of its forms: a Zod schema (TS definitions), an
 * inline JSON Schema, JSON text (the proto form), a .json/.yaml path relative
 * to the definition, or the name of a schema registered in code.
 */
export function resolveOutputSchema(
  value: unknown,
  at: IssuePath,
  ctx: SchemaContext,
): ResolvedSchema {
  if (isZodLike(value)) return { schema: fromZod(value), issues: [] };
  if (isPlainObject(value)) {
    return { schema: { kind: 'json_schema', schema: value }, issues: checkJsonSchema(value, at) };
  }
  const reference = String(value).trim();
  if (reference.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(reference);
    } catch (error) {
      return {
        issues: [
          errorAt(
            at,
            `schema JSON text does not parse: ${error instanceof Error ? error.message : String(error)}`,
          ),
        ],
      };
    }
    return resolveOutputSchema(parsed, at, ctx);
  }
  if (FILE_PATTERN.test(reference)) {
    const absolute = path.resolve(ctx.baseDir, reference);
    const loaded = loadSchemaFile(reference, absolute, at, ctx.cwd);
    if (!loaded.schema) return { issues: loaded.issues };
    return {
      schema: { kind: 'json_schema', schema: loaded.schema, origin: `file:${reference}` },
      issues: [],
    };
  }
  return fromRegistry(reference, at, ctx.schemas);
}
