import { SchemaValidator } from './schema-validator.js';

/**
 * Caches shared by many runs (compiled schemas). Create one per process or
 * server and pass it to every run; a run without one makes its own.
 */
export interface Runtime {
  validator: SchemaValidator;
}

export async function createRuntime(): Promise<Runtime> {
  return { validator: await SchemaValidator.create() };
}
