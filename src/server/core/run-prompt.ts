import { NotFoundError } from '../../errors/cadre-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import { definitionHash, snapshotDefinition } from '../../trajectory/definition-snapshot.js';
import type { RunHooks, RunRequest, RunResponse } from '../run-service-types.js';
import { attachRun, type Attacher } from './attach-run.js';
import { agentFor } from './pick-definition.js';
import type { ServerContext } from './server-context.js';
import { runResponse } from './views.js';

/**
 * The runtime spec's core loop, as a durable job: thread, prompt and run
 * (`queued`) are committed together, a worker (this process's or another's)
 * drives it, and the request attaches until the run finishes or waits for a
 * person. A request that goes away detaches; the run goes on.
 */
export async function runPrompt(
  ctx: ServerContext,
  attach: Attacher,
  request: RunRequest,
  hooks: RunHooks = {},
): Promise<RunResponse> {
  const prompt = request.prompt.trim();
  if (!prompt) throw new ValidationError([{ path: 'prompt', message: 'must not be empty' }]);
  const definition = agentFor(ctx, request.agent);
  const enqueued = await ctx.store.enqueueRun(
    {
      userId: request.userId,
      ...(request.threadId ? { threadId: request.threadId } : {}),
      title: prompt.slice(0, 80),
      prompt,
      ...(request.record ? { record: true } : {}),
      agent: definition.name,
      definitionSnapshot: await snapshotDefinition(definition),
      definitionHash: await definitionHash(definition),
      model: definition.modelConfig?.model ?? ctx.defaultModel ?? '',
    },
    hooks.signal,
  );
  if (!enqueued) throw new NotFoundError('No such thread.');
  attach.wake();
  hooks.onStarted?.({ runId: enqueued.run.id, threadId: enqueued.thread.id });
  const run = await attachRun(ctx, request.userId, enqueued.run.id, {
    ...attach,
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    ...(hooks.onEvent ? { onEvent: hooks.onEvent } : {}),
  });
  return runResponse(ctx, request.userId, run);
}
