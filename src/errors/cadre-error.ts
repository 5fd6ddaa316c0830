/** Stable error codes of the taxonomy: clients branch on them, so they never change. */
export type ErrorCode =
  | 'validation_error'
  | 'auth_error'
  | 'policy_error'
  | 'tool_execution_error'
  | 'model_error'
  | 'config_error'
  | 'timeout'
  | 'cancelled'
  | 'not_found'
  | 'conflict'
  | 'store_unavailable';

/**
 * Base of every error Cadre raises on purpose. `message` is safe to show a
 * user; `details` may hold internals and goes to logs only.
 */
export class CadreError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; details?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options?.details;
  }
}

export class AuthError extends CadreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('auth_error', message, options);
  }
}

export class PolicyError extends CadreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('policy_error', message, options);
  }
}

/** A model call that would not fit what is left of a `max_cost_usd` (its own or its tree's). */
export class CostLimitError extends PolicyError {
  /** The cap that refused the call, in US dollars. */
  readonly limitUsd: number;

  constructor(limitUsd: number) {
    super(`Not started: the run's cost limit ($${limitUsd}) is spent.`);
    this.limitUsd = limitUsd;
  }
}

export class ToolExecutionError extends CadreError {
  constructor(message: string, options?: { cause?: unknown; details?: unknown }) {
    super('tool_execution_error', message, options);
  }
}

export class ConfigError extends CadreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('config_error', message, options);
  }
}

export class TimeoutError extends CadreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('timeout', message, options);
  }
}

export class CancelledError extends CadreError {
  constructor(message = 'The run was cancelled.', options?: { cause?: unknown }) {
    super('cancelled', message, options);
  }
}

/** Something that does not exist for this caller (another user's thread answers this too). */
export class NotFoundError extends CadreError {
  constructor(message = 'Not found.') {
    super('not_found', message);
  }
}

/** The request lost a race it cannot win again (an approval already resolved). */
export class ConflictError extends CadreError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/** True when `error` is an abort raised by an AbortSignal (DOM or Node flavour). */
export function isAbortError(error: unknown): boolean {
  return (
    error instanceof CancelledError ||
    (error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError'))
  );
}
