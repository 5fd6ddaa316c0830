import { apiErrorOf } from './api-error.js';

export type AuthorizedFetch = (path: string, init?: RequestInit) => Promise<Response>;

/** The browser's fetch, or one a test points at a server on 127.0.0.1. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Called bare, never as a method: a browser refuses `fetch` bound to another object. */
const globalFetch: FetchLike = (input, init) => fetch(input, init);

/** Fetch with the bearer token: a failed response throws its ApiError, and a 401 signs out. */
export function authorizedFetch(
  token: string,
  onUnauthorized: () => void,
  send: FetchLike = globalFetch,
): AuthorizedFetch {
  return async (path, init = {}) => {
    const response = await send(path, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
    });
    if (response.ok) return response;
    const error = await apiErrorOf(response);
    if (response.status === 401) onUnauthorized();
    throw error;
  };
}
