import type { RunHooks, RunResponse } from '../run-service-types.js';
import type { ForkRequest } from '../trajectory-view-types.js';
import type { Attacher } from './attach-run.js';
import { forkConversation } from './fork-conversation.js';
import { runPrompt } from './run-prompt.js';
import { runTrajectory } from './run-trajectory.js';
import type { ServerContext } from './server-context.js';

/**
 * A new run in a new thread, from model step `step` of a recorded run, with
 * its prompt edited: the steps before are kept as recorded (no model call, no
 * tool run again), the model goes on from there, and the fork is recorded
 * too. Undefined when the run is not the user's.
 */
export async function forkRun(
  ctx: ServerContext,
  attach: Attacher,
  request: ForkRequest,
  hooks: RunHooks = {},
): Promise<RunResponse | undefined> {
  const found = await runTrajectory(ctx, request.userId, request.runId, hooks.signal);
  if (!found) return undefined;
  const { run, trajectory } = found;
  // The same agent, as a resume finds it: the server's default under its own name.
  const agent = run.agent === ctx.defaultAgent.name ? undefined : run.agent;
  const { definition } = await ctx.pickAgent(agent);
  const start = forkConversation(trajectory, definition, request.step, request.prompt.trim());
  return runPrompt(
    ctx,
    attach,
    {
      userId: request.userId,
      prompt: request.prompt,
      ...(agent ? { agent } : {}),
      record: true,
      ...start,
    },
    hooks,
  );
}
