import { CadreError } from './cadre-error.js';

/** A provider failure. `message` is safe to show; the raw provider body stays in `details`. */
export class ModelError extends CadreError {
  readonly status?: number;
  readonly retryable: boolean;
  /**
   * Set when the provider refused the request as longer than the model's
   * context window, with the sizes it named: the run compacts and tries once more.
   */
  readonly contextOverflow?: { inputTokens?: number; maxTokens?: number };

  constructor(
    message: string,
    options?: {
      status?: number;
      retryable?: boolean;
      cause?: unknown;
      details?: unknown;
      contextOverflow?: { inputTokens?: number; maxTokens?: number };
    },
  ) {
    super('model_error', message, options);
    this.status = options?.status;
    this.retryable = options?.retryable ?? false;
    if (options?.contextOverflow) this.contextOverflow = options.contextOverflow;
  }
}
