import { CadreError } from './cadre-error.js';

/** A provider failure. `message` is safe to show; the raw provider body stays in `details`. */
export class ModelError extends CadreError {
  readonly status?: number;
  readonly retryable: boolean;

  constructor(
    message: string,
    options?: { status?: number; retryable?: boolean; cause?: unknown; details?: unknown },
  ) {
    super('model_error', message, options);
    this.status = options?.status;
    this.retryable = options?.retryable ?? false;
  }
}
