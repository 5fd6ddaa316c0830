import { ApiError, apiErrorOf } from './api-error.js';

/** Trades the one-time code of `cadre serve`'s sign-in link for a session token (once). */
export async function exchangeSignInCode(code: string, signal?: AbortSignal): Promise<string> {
  const response = await fetch('/api/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) throw await apiErrorOf(response);
  const body = (await response.json()) as { token?: unknown };
  if (typeof body.token !== 'string' || !body.token)
    throw new ApiError(response.status, 'empty', 'The server sent no token.');
  return body.token;
}
