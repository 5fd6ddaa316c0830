import type { GrantView } from '../../../src/server/run-service-types.js';
import { ApiError } from './api-error.js';
import { authorizedFetch } from './authorized-fetch.js';
import { readNdjson } from './read-ndjson.js';
import { toStreamLine } from './stream-line.js';
import type { ApprovalDecision, ApprovalView } from './wire-types.js';

export type { GrantView } from '../../../src/server/run-service-types.js';

export interface PendingPage {
  approvals: ApprovalView[];
  nextCursor: string | null;
}

/** The approvals waiting for the signed-in person, and their "always allow" grants. */
export interface InboxApi {
  pending(cursor?: string, signal?: AbortSignal): Promise<PendingPage>;
  /** Sends a decision; resolves once the server has stored it (the run goes on without the page). */
  decide(
    body: { approvalId: string; decision: ApprovalDecision; feedback?: string },
    signal?: AbortSignal,
  ): Promise<void>;
  grants(signal?: AbortSignal): Promise<GrantView[]>;
  revokeGrant(id: string, signal?: AbortSignal): Promise<void>;
}

export function createInboxApi(token: string, onUnauthorized: () => void): InboxApi {
  const send = authorizedFetch(token, onUnauthorized);
  const init = (signal?: AbortSignal) => (signal ? { signal } : {});
  return {
    async pending(cursor, signal) {
      const query = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const response = await send(`/api/agent/approvals/pending?limit=200${query}`, init(signal));
      const body = (await response.json()) as Partial<PendingPage>;
      return { approvals: body.approvals ?? [], nextCursor: body.nextCursor ?? null };
    },
    async decide(body, signal) {
      const response = await send('/api/agent/approvals/resolve/stream', {
        method: 'POST',
        body: JSON.stringify(body),
        ...init(signal),
      });
      if (!response.body) throw new ApiError(response.status, 'empty', 'The server sent no body.');
      // The first line comes once the decision is stored; leaving then only detaches from the run.
      for await (const value of readNdjson(response.body)) {
        const line = toStreamLine(value);
        if (line?.type === 'error')
          throw new ApiError(response.status, line.error.code, line.error.message);
        if (line) return;
      }
    },
    async grants(signal) {
      const body = (await (await send('/api/grants', init(signal))).json()) as {
        grants?: GrantView[];
      };
      return body.grants ?? [];
    },
    async revokeGrant(id, signal) {
      await send(`/api/grants/${encodeURIComponent(id)}`, { method: 'DELETE', ...init(signal) });
    },
  };
}
