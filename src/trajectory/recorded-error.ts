import { CadreError, type ErrorCode } from '../errors/cadre-error.js';
import { ModelError } from '../errors/model-error.js';
import type { RecordedError } from './types.js';

/** What a trajectory keeps of an error: its safe message and how to raise it again. */
export function recordError(error: unknown): RecordedError {
  if (error instanceof ModelError) {
    return {
      name: 'ModelError',
      message: error.message,
      code: error.code,
      retryable: error.retryable,
      ...(error.status === undefined ? {} : { status: error.status }),
    };
  }
  if (error instanceof CadreError)
    return { name: error.name, message: error.message, code: error.code };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/**
 * An error equivalent to the recorded one for everything the runtime looks
 * at (class, code, name, message), so a replayed failure takes the same path.
 */
export function errorFromRecord(recorded: RecordedError): Error {
  if (recorded.name === 'ModelError') {
    return new ModelError(recorded.message, {
      ...(recorded.status === undefined ? {} : { status: recorded.status }),
      retryable: recorded.retryable ?? false,
    });
  }
  if (recorded.code) return new CadreError(recorded.code as ErrorCode, recorded.message);
  const error = new Error(recorded.message);
  error.name = recorded.name;
  return error;
}
