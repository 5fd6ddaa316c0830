import { NotFoundError } from '../../errors/cadre-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { Message } from '../../model/types.js';
import { definitionHash, snapshotDefinition } from '../../trajectory/definition-snapshot.js';
import type { ThreadMessage } from '../../store/types.js';
import type { RunHooks, RunRequest, RunResponse } from '../run-service-types.js';
import { driveRun } from './drive-run.js';
import { agentFor } from './pick-definition.js';
import { HISTORY_MESSAGES, type ServerContext } from './server-context.js';

/** The runtime spec's core loop: thread, message, run record, then the agent until it finishes or waits. */
export async function runPrompt(
  ctx: ServerContext,
  request: RunRequest,
  hooks: RunHooks = {},
): Promise<RunResponse> {
  const prompt = request.prompt.trim();
  if (!prompt) throw new ValidationError([{ path: 'prompt', message: 'must not be empty' }]);
  const definition = agentFor(ctx, request.agent);
  const thread = request.threadId
    ? await ctx.store.getThread(request.userId, request.threadId, hooks.signal)
    : await ctx.store.createThread(
        { userId: request.userId, title: prompt.slice(0, 80) },
        hooks.signal,
      );
  if (!thread) throw new NotFoundError('No such thread.');
  const earlier = await ctx.store.listMessages(
    thread.id,
    { limit: HISTORY_MESSAGES },
    hooks.signal,
  );
  await ctx.store.appendMessage(
    { threadId: thread.id, role: 'user', content: prompt },
    hooks.signal,
  );
  const run = await ctx.store.createRun(
    {
      threadId: thread.id,
      userId: request.userId,
      agent: definition.name,
      status: 'planning',
      definitionSnapshot: await snapshotDefinition(definition),
      definitionHash: await definitionHash(definition),
      model: definition.modelConfig?.model ?? ctx.defaultModel ?? '',
    },
    hooks.signal,
  );
  return driveRun(
    ctx,
    request.userId,
    run,
    definition,
    {
      kind: 'start',
      prompt,
      history: toHistory(earlier),
      ...(request.record ? { record: true } : {}),
    },
    hooks,
  );
}

function toHistory(messages: readonly ThreadMessage[]): Message[] {
  return messages
    .filter((m) => m.role !== 'system' && m.content.trim())
    .map((m) => ({
      role: m.role === 'user' ? 'user' : 'model',
      parts: [{ kind: 'text', text: m.content }],
    }));
}
