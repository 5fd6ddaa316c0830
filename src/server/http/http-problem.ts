import type { ErrorCode } from '../../errors/cadre-error.js';

/** Every `error.code` a response can carry: the taxonomy plus the HTTP layer's own. */
export type HttpErrorCode =
  | ErrorCode
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'request_timeout'
  | 'thread_agent_mismatch'
  | 'internal';

/** A failure the HTTP layer itself decides (bad request shape, rate limit); its message is safe by construction. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: HttpErrorCode;

  constructor(status: number, code: HttpErrorCode, message: string) {
    super(message);
    this.name = 'HttpProblem';
    this.status = status;
    this.code = code;
  }
}

/** The body of every error response. */
export interface ErrorBody {
  ok: false;
  error: { code: HttpErrorCode; message: string };
}
