import { ConflictError, NotFoundError } from '../../errors/cadre-error.js';
import type { Store } from '../../store/types.js';

/** A request naming another agent than the one its thread talks to (HTTP 409 `thread_agent_mismatch`). */
export class ThreadAgentMismatchError extends ConflictError {
  readonly threadAgent: string;

  constructor(threadId: string, threadAgent: string, requested: string) {
    super(
      `Thread ${threadId} talks to agent '${threadAgent}', not '${requested}': ` +
        `leave agent out to go on with '${threadAgent}', or start a new thread for '${requested}'.`,
    );
    this.threadAgent = threadAgent;
  }
}

/**
 * The agent a request goes to: a thread keeps the agent it started with, so
 * a follow-up that names none goes on with it (not the server's default),
 * and one naming another is refused rather than switched silently. A thread
 * from before threads kept their agent (none stored) takes the request's.
 */
export async function agentForRequest(
  store: Pick<Store, 'threads'>,
  request: { userId: string; threadId?: string; agent?: string },
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (!request.threadId) return request.agent;
  const thread = await store.threads.get(request.threadId, request.userId, { signal });
  if (!thread) throw new NotFoundError('No such thread.');
  if (!thread.agent) return request.agent;
  if (request.agent !== undefined && request.agent !== thread.agent)
    throw new ThreadAgentMismatchError(thread.id, thread.agent, request.agent);
  return thread.agent;
}
