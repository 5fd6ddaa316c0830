import type { ErrorObject } from 'ajv';
import { didYouMean } from './did-you-mean.js';
import { errorAt, type IssuePath, type PendingIssue } from './issues.js';
import { requireAjv } from './lazy-modules.js';

type Draft = '2020-12' | '2019-09' | 'draft-07';

function draftOf(schema: Record<string, unknown>): Draft | undefined {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') return undefined;
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (declared.includes('draft-07')) return 'draft-07';
  return undefined;
}

/** `/properties/a~1b/0` → ['properties', 'a/b', 0]. */
function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function describeAjvError(error: ErrorObject): string {
  const allowed = (error.params as { allowedValues?: unknown }).allowedValues;
  if (Array.isArray(allowed) && typeof error.data === 'string') {
    return `${error.message ?? 'is invalid'} (got "${error.data}"${didYouMean(error.data, allowed.map(String))})`;
  }
  return error.message ?? 'is invalid';
}

/**
 * Checks that `schema` is a valid JSON Schema (against its draft's
 * meta-schema) and compiles (so a broken `$ref` is caught at load, not
 * mid-run). Issues point inside the schema: `outputConfig.schema.properties.x.type`.
 */
export function checkJsonSchema(schema: Record<string, unknown>, path: IssuePath): PendingIssue[] {
  const draft = draftOf(schema);
  if (draft === undefined) {
    return [
      errorAt(
        [...path, '$schema'],
        'unsupported $schema; use JSON Schema draft 2020-12, 2019-09 or draft-07',
      ),
    ];
  }
  const Ajv = requireAjv(draft);
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, validateFormats: false });
  if (!ajv.validateSchema(schema)) {
    const seen = new Set<string>();
    const issues: PendingIssue[] = [];
    for (const error of ajv.errors ?? []) {
      // anyOf/oneOf wrappers repeat what their branches said.
      if (['anyOf', 'oneOf', 'if'].includes(error.keyword) || seen.has(error.instancePath))
        continue;
      seen.add(error.instancePath);
      issues.push(
        errorAt(
          [...path, ...pointerToPath(error.instancePath)],
          `invalid JSON Schema: ${describeAjvError(error)}`,
        ),
      );
    }
    return issues.length > 0 ? issues : [errorAt(path, 'invalid JSON Schema')];
  }
  try {
    ajv.compile(schema);
    return [];
  } catch (error) {
    return [
      errorAt(
        path,
        `invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
      ),
    ];
  }
}
