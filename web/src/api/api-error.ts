/** A non-2xx answer from the server, with its stable error code when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** Builds an ApiError from an error response; the body may be JSON or nothing. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  let code = `http_${response.status}`;
  let message = response.statusText || `Request failed (${response.status}).`;
  try {
    const body = (await response.json()) as unknown;
    const error = typeof body === 'object' && body !== null && 'error' in body ? body.error : body;
    if (typeof error === 'string') message = error;
    else if (typeof error === 'object' && error !== null) {
      if ('code' in error && typeof error.code === 'string') code = error.code;
      if ('message' in error && typeof error.message === 'string') message = error.message;
    }
  } catch {
    // Not JSON: keep the status text.
  }
  return new ApiError(response.status, code, message);
}

/** True for the answer a second tab gets when the approval was decided elsewhere. */
export const isConflict = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 409 || error.code === 'conflict');
