import { ApiError } from '../api/api-error.js';

/** What the page was doing when a request failed: the words and the way out differ. */
export type Attempt = 'send' | 'decide' | 'load' | 'follow' | 'cancel';

/** A failure put in words a person can act on; `retry` when trying again may work. */
export interface FailureText {
  text: string;
  retry: boolean;
}

const UNREACHABLE: Record<Attempt, string> = {
  send: 'Cannot reach the server — your message is kept. Retry when it is back.',
  decide: 'Cannot reach the server — your decision was not sent. Try again when it is back.',
  load: 'Cannot reach the server. Retry when it is back.',
  follow: 'Lost the connection to the server. The run goes on there; reconnect to follow it.',
  cancel: 'Cannot reach the server — the run was not stopped. Try again when it is back.',
};

/**
 * True when no answer came from the server itself: fetch rejects with a
 * TypeError ("Failed to fetch", "network error"), and a proxy in front of a
 * stopped server answers 502–504 without the server's JSON error body.
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  return (
    error instanceof ApiError &&
    error.status >= 502 &&
    error.status <= 504 &&
    error.code.startsWith('http_')
  );
}

export function failureText(error: unknown, attempt: Attempt): FailureText {
  if (isUnreachable(error)) return { text: UNREACHABLE[attempt], retry: true };
  if (error instanceof ApiError) {
    // The server's messages are written for people; busy or failing servers may recover.
    const retry = error.status === 429 || error.status >= 500;
    const kept = attempt === 'send' ? ' Your message is kept.' : '';
    return { text: `${error.message}${kept}`, retry };
  }
  const kept = attempt === 'send' ? ' — your message is kept' : '';
  return { text: `Something went wrong talking to the server${kept}. Retry.`, retry: true };
}
