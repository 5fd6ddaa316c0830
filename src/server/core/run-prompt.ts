import { NotFoundError } from '../../errors/cadre-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { CadreEvent } from '../../events/types.js';
import { emptyUsage } from '../../model/types.js';
import { startJob } from '../../store/operations/run-start.js';
import type { Run, StartExtras } from '../../store/types.js';
import { validateInputs } from '../../runtime/prompt/inputs.js';
import type { RunHooks, RunRequest, RunResponse } from '../run-service-types.js';
import { attachRun, type Attacher } from './attach-run.js';
import { followLocal } from './follow-local.js';
import { threadHistory, type ThreadHistory } from './thread-context.js';
import type { PickedAgent } from './pick-definition.js';
import type { ServerContext } from './server-context.js';
import { agentForRequest } from './thread-agent.js';
import { runResponse } from './views.js';

/**
 * The runtime spec's core loop, as a durable job. With a worker in this
 * process, the run is driven here at once and the request follows it in
 * memory; the run is stored before its first side effect, when it pauses,
 * after a short while, or whole as it ends (see RunWorkerOptions.storeAfterMs).
 * Otherwise thread, prompt and run (`queued`) are committed together and a
 * worker (another process's, or this one's when full) drives it while the
 * request follows the stored log. A request that goes away detaches; the
 * run goes on.
 */
export async function runPrompt(
  ctx: ServerContext,
  attach: Attacher,
  request: RunRequest & Pick<StartExtras, 'conversation'>,
  hooks: RunHooks = {},
): Promise<RunResponse> {
  const prompt = request.prompt.trim();
  if (!prompt) throw new ValidationError([{ path: 'prompt', message: 'must not be empty' }]);
  const agent = await ctx.pickAgent(await agentForRequest(ctx.store, request, hooks.signal));
  // Bad inputs are the caller's mistake: refused now, not as a run that fails later.
  if (request.inputs) validateInputs(agent.definition, request.inputs, ctx.runtime.validator);
  const extras = startExtrasOf(request);
  // Asked first, so a full worker costs no history read before the run is queued instead.
  const here = attach.worker?.hasRoom()
    ? await startHere(ctx, attach, request, prompt, agent, hooks)
    : undefined;
  if (here) return here;
  const enqueued = await ctx.store.queue.enqueue(
    {
      userId: request.userId,
      ...(request.threadId ? { threadId: request.threadId } : {}),
      title: prompt.slice(0, 80),
      prompt,
      ...(request.record ? { record: true } : {}),
      ...extras,
      agent: agent.definition.name,
      definitionSnapshot: agent.snapshot,
      definitionHash: agent.hash,
      model: modelOf(ctx, agent),
    },
    { signal: hooks.signal },
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

const modelOf = (ctx: ServerContext, agent: PickedAgent): string =>
  agent.definition.modelConfig?.model ?? ctx.defaultModel ?? '';

const startExtrasOf = (request: RunRequest & StartExtras): StartExtras => ({
  ...(request.inputs ? { inputs: request.inputs } : {}),
  ...(request.conversation ? { conversation: request.conversation } : {}),
  ...(request.trace ? { trace: request.trace } : {}),
});

/**
 * Starts the run on this process's worker and follows it in memory: no
 * queue, no reads of what this process already knows. Undefined when the
 * worker is full (the caller queues the run instead).
 */
async function startHere(
  ctx: ServerContext,
  attach: Attacher,
  request: RunRequest & StartExtras,
  prompt: string,
  agent: PickedAgent,
  hooks: RunHooks,
): Promise<RunResponse | undefined> {
  let thread: ThreadHistory = { history: [], historySeqs: [] };
  if (request.threadId) {
    // The thread is the user's; then what the model should see of it: its summary and what follows.
    const owned = await ctx.store.threads.readHistory(request.threadId, request.userId, 1, {
      signal: hooks.signal,
    });
    if (!owned) throw new NotFoundError('No such thread.');
    thread = await threadHistory(ctx.store, request.threadId, undefined, hooks.signal);
  }
  const time = new Date().toISOString();
  const run: Run = {
    id: attach.newId(),
    threadId: request.threadId ?? attach.newId(),
    userId: request.userId,
    agent: agent.definition.name,
    status: 'planning',
    definitionHash: agent.hash,
    state: null,
    summary: '',
    model: modelOf(ctx, agent),
    usage: emptyUsage(),
    createdAt: time,
    updatedAt: time,
    eventSeq: 0,
    // Its thread message number is known only once it is stored.
    job: startJob(prompt, 0, request.record, startExtrasOf(request)),
    cancelRequested: false,
  };
  // A streaming request hears of the run (its ids) before any of its events.
  let announced = false;
  const early: CadreEvent[] = [];
  const onEvent = (event: CadreEvent): void => {
    if (announced) hooks.onEvent?.(event);
    else early.push(event);
  };
  const local = attach.worker?.adopt({
    run,
    definition: agent.definition,
    unstored: {
      runId: run.id,
      userId: run.userId,
      thread: { id: run.threadId, title: prompt.slice(0, 80), existing: !!request.threadId },
      prompt,
      ...(request.record ? { record: true } : {}),
      ...startExtrasOf(request),
      agent: run.agent,
      definitionSnapshot: agent.snapshot,
      definitionHash: agent.hash,
      model: run.model,
    },
    ...thread,
    record: request.record === true,
    // An id that leaves this process names a stored run: a client that reads it (from the
    // status line or an event), loses this process and asks another still finds the run. A
    // plain request hears of its run only when it ends, so its run may be stored whole then.
    storeFirst: hooks.onStarted !== undefined || hooks.onEvent !== undefined,
    ...(hooks.onEvent ? { onEvent } : {}),
  });
  if (!local) return undefined;
  await local.ready;
  hooks.onStarted?.({ runId: run.id, threadId: run.threadId });
  announced = true;
  for (const event of early.splice(0)) hooks.onEvent?.(event);
  return followLocal(ctx, attach, request.userId, local, hooks);
}
