import { ApiError } from './api-error.js';
import { authorizedFetch, type FetchLike } from './authorized-fetch.js';
import { readNdjson } from './read-ndjson.js';
import { toStreamLine, type StreamLine } from './stream-line.js';
import type {
  AgentView,
  ApprovalDecision,
  AuditEntry,
  AuditVerification,
  RunResponse,
  RunView,
  Thread,
  ThreadView,
} from './wire-types.js';

export interface RunBody extends RunOptions {
  prompt: string;
  threadId?: string;
  agent?: string;
}

/** What a run may carry besides its message. */
export interface RunOptions {
  /** Structured inputs, for an agent with an inputConfig. */
  inputs?: Record<string, unknown>;
  /** Keep a trajectory of the run, to step through and fork later. */
  record?: boolean;
}

export interface ResolveBody {
  approvalId: string;
  decision: ApprovalDecision;
  feedback?: string;
}

/** The few routes the page calls, with the bearer token attached. */
export interface Api {
  listThreads(signal?: AbortSignal): Promise<Thread[]>;
  getThread(threadId: string, signal?: AbortSignal): Promise<ThreadView>;
  getRun(runId: string, signal?: AbortSignal): Promise<RunView>;
  /** Asks the server to stop a run; its stream then ends with how the run settled. */
  cancelRun(runId: string, signal?: AbortSignal): Promise<RunResponse>;
  listAgents(signal?: AbortSignal): Promise<AgentView[]>;
  /** Who the token signs in as. */
  me(signal?: AbortSignal): Promise<{ name: string }>;
  audit(runId: string, signal?: AbortSignal): Promise<AuditEntry[]>;
  verifyAudit(signal?: AbortSignal): Promise<AuditVerification>;
  runStream(body: RunBody, signal?: AbortSignal): AsyncGenerator<StreamLine>;
  resolveStream(body: ResolveBody, signal?: AbortSignal): AsyncGenerator<StreamLine>;
  /** Re-attaches to a run: its stored events after `after`, then live ones until it settles. */
  followStream(runId: string, after: number, signal?: AbortSignal): AsyncGenerator<StreamLine>;
}

/** Lists may come bare or wrapped (`{threads: [...]}`); both are accepted. */
function listOf<T>(body: unknown, key: string): T[] {
  if (Array.isArray(body)) return body as T[];
  if (typeof body === 'object' && body !== null && key in body) {
    const inner = (body as Record<string, unknown>)[key];
    if (Array.isArray(inner)) return inner as T[];
  }
  return [];
}

export interface ApiOptions {
  /** Defaults to the browser's; tests pass one bound to their server's address. */
  fetch?: FetchLike;
}

export function createApi(
  token: string,
  onUnauthorized: () => void,
  options: ApiOptions = {},
): Api {
  const send = authorizedFetch(token, onUnauthorized, options.fetch);
  const getJson = async (path: string, signal?: AbortSignal): Promise<unknown> =>
    (await send(path, signal ? { signal } : {})).json() as Promise<unknown>;

  async function* stream(path: string, body: object | undefined, signal?: AbortSignal) {
    const response = await send(path, {
      ...(body ? { method: 'POST', body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
    if (!response.body) throw new ApiError(response.status, 'empty', 'The server sent no body.');
    for await (const value of readNdjson(response.body)) {
      const line = toStreamLine(value);
      if (line) yield line;
    }
  }

  return {
    listThreads: async (signal) => listOf<Thread>(await getJson('/api/threads', signal), 'threads'),
    getThread: async (id, signal) =>
      (await getJson(`/api/threads/${encodeURIComponent(id)}`, signal)) as ThreadView,
    getRun: async (id, signal) =>
      (await getJson(`/api/runs/${encodeURIComponent(id)}`, signal)) as RunView,
    cancelRun: async (id, signal) =>
      (await (
        await send(`/api/runs/${encodeURIComponent(id)}/cancel`, {
          method: 'POST',
          body: '{}',
          ...(signal ? { signal } : {}),
        })
      ).json()) as RunResponse,
    listAgents: async (signal) => listOf<AgentView>(await getJson('/api/agents', signal), 'agents'),
    me: async (signal) => {
      const body = (await getJson('/api/me', signal)) as { user?: { name?: unknown } };
      const name = body.user?.name;
      if (typeof name !== 'string') throw new ApiError(200, 'empty', 'The server sent no user.');
      return { name };
    },
    audit: async (runId, signal) =>
      listOf<AuditEntry>(
        await getJson(`/api/audit?runId=${encodeURIComponent(runId)}`, signal),
        'entries',
      ),
    verifyAudit: async (signal) => {
      const body = (await getJson('/api/audit/verify', signal)) as Record<string, unknown>;
      return (body.verification ?? body) as AuditVerification;
    },
    runStream: (body, signal) => stream('/api/agent/run/stream', body, signal),
    resolveStream: (body, signal) => stream('/api/agent/approvals/resolve/stream', body, signal),
    followStream: (runId, after, signal) =>
      stream(`/api/runs/${encodeURIComponent(runId)}/stream?after=${after}`, undefined, signal),
  };
}
