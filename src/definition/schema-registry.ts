import type { JsonSchema } from '../model/types.js';
import type { OutputSchema, ZodLike } from './types.js';
import { isZodLike } from './zod-like.js';

/**
 * Output schemas registered in code, referenced by name from YAML / JSON
 * definitions (`outputConfig.schema: CodebaseInvestigationReportSchema`).
 * One registry per loader call site: no global state.
 */
export class SchemaRegistry {
  private readonly schemas = new Map<string, OutputSchema>();

  register(name: string, schema: JsonSchema | ZodLike): this {
    if (!name.trim()) throw new TypeError('A schema needs a non-empty name.');
    if (this.schemas.has(name))
      throw new TypeError(`A schema named "${name}" is already registered.`);
    const origin = `registry:${name}`;
    this.schemas.set(
      name,
      isZodLike(schema) ? { kind: 'zod', schema, origin } : { kind: 'json_schema', schema, origin },
    );
    return this;
  }

  get(name: string): OutputSchema | undefined {
    return this.schemas.get(name);
  }

  has(name: string): boolean {
    return this.schemas.has(name);
  }

  names(): string[] {
    return [...this.schemas.keys()].sort();
  }
}
