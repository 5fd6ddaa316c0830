import type { JsonSchema } from '../../model/types.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { ZodLike } from '../../definition/types.js';

export type ValidationOutcome = { ok: true; value: unknown } | { ok: false; errors: string[] };

export type ValidateFn = (value: unknown) => ValidationOutcome;

interface AjvLike {
  compile(schema: object): AjvCompiled;
}
interface AjvCompiled {
  (value: unknown): boolean;
  errors?: AjvErrorObject[] | null;
}

/**
 * Compiles JSON Schemas once and keeps them keyed by schema object, so a
 * tool's arguments are validated at run speed. One instance per runtime
 * (never module-level); Ajv loads lazily to keep import time low.
 */
export class SchemaValidator {
  private readonly compiled = new WeakMap<object, ValidateFn>();
  private readonly derived = new WeakMap<object, ValidateFn>();
  private readonly byText = new Map<string, ValidateFn>();
  private constructor(private readonly ajv: AjvLike) {}

  static async create(options: { coerceTypes?: boolean } = {}): Promise<SchemaValidator> {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const ajv = new Ajv2020({
      allErrors: true,
      strict: false,
      validateFormats: false,
      coerceTypes: options.coerceTypes ?? false,
    });
    return new SchemaValidator(ajv);
  }

  forJsonSchema(schema: JsonSchema): ValidateFn {
    const cached = this.compiled.get(schema);
    if (cached) return cached;
    // Equal schemas built afresh (per run, per resume) share one compiled validator;
    // `$id` is dropped so Ajv never refuses a second copy of an identified schema.
    const { $schema: _s, $id: _i, ...rest } = schema;
    const key = canonicalJson(rest);
    const fn = this.byText.get(key) ?? this.compile(rest);
    this.byText.set(key, fn);
    this.compiled.set(schema, fn);
    return fn;
  }

  private compile(schema: JsonSchema): ValidateFn {
    const check = this.ajv.compile(schema);
    return (value) =>
      check(value)
        ? { ok: true, value }
        : { ok: false, errors: (check.errors ?? []).map(formatAjvError) };
  }

  /** Validator for a schema derived from `key` (e.g. a definition's inputs map), built once. */
  derivedFrom(key: object, build: () => JsonSchema): ValidateFn {
    const cached = this.derived.get(key);
    if (cached) return cached;
    const fn = this.forJsonSchema(build());
    this.derived.set(key, fn);
    return fn;
  }

  forZod(schema: ZodLike): ValidateFn {
    return (value) => {
      const parsed = schema.safeParse(value);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, errors: formatZodError(parsed.error) };
    };
  }
}

interface AjvErrorObject {
  instancePath: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** `score: must be integer`, `to: is required`, `cc: is not allowed`. */
function formatAjvError(error: AjvErrorObject): string {
  const base = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : '';
  const join = (key: string): string => (base ? `${base}.${key}` : key);
  if (error.keyword === 'required' && typeof error.params?.missingProperty === 'string') {
    return `${join(error.params.missingProperty)}: is required`;
  }
  if (
    error.keyword === 'additionalProperties' &&
    typeof error.params?.additionalProperty === 'string'
  ) {
    return `${join(error.params.additionalProperty)}: is not allowed`;
  }
  return `${base || '(root)'}: ${error.message ?? 'is invalid'}`;
}

function formatZodError(error: unknown): string[] {
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
  if (!Array.isArray(issues)) return [String(error)];
  return issues.map(
    (i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`,
  );
}
