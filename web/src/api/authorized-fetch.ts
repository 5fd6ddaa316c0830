import { apiErrorOf } from './api-error.js';

export type AuthorizedFetch = (path: string, init?: RequestInit) => Promise<Response>;

/** Fetch with the bearer token: a failed response throws its ApiError, and a 401 signs out. */
export function authorizedFetch(token: string, onUnauthorized: () => void): AuthorizedFetch {
  return async (path, init = {}) => {
    const response = await fetch(path, {
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
