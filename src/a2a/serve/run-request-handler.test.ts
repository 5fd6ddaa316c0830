import { TaskState } from '@a2a-js/sdk';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import type { RunHooks, RunResponse, RunView } from '../../server/run-service-types.js';
import { fakeService, response } from '../../server/http/testing/test-support.js';
import { SIGNAL_KEY } from './run-executor.js';
import { RunRequestHandler } from './run-request-handler.js';
import { agentCard } from './serve-agent.js';

const USER = 'u-ann';

/** Ann's run r1 of the greeter, still running (its cancel is asked for below). */
const runningView: RunView = {
  run: {
    id: 'r1',
    threadId: 't1',
    userId: USER,
    agent: 'greeter',
    status: 'executing',
    definitionHash: 'd',
    summary: '',
    model: 'scripted',
    usage: { inputTokens: 0, outputTokens: 0, thoughtTokens: 0, totalTokens: 0 },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    eventSeq: 3,
    cancelRequested: false,
  },
  actions: [],
  approvals: [],
  events: [],
};

/** The handler over a run service whose cancel is asked for and whose run then does `follow`. */
function handler(follow: (hooks: RunHooks) => Promise<RunResponse | undefined>) {
  const service = fakeService({
    getRun: (userId, runId) =>
      Promise.resolve(userId === USER && runId === 'r1' ? runningView : undefined),
    cancelRun: () => Promise.resolve(response({ status: 'running', summary: '' })),
    followRun: (_userId, _runId, _after, hooks) => follow(hooks),
  });
  const card = agentCard({ name: 'greeter', description: '' }, 'http://127.0.0.1/a2a/greeter');
  return { service, handler: new RunRequestHandler(card, service, 'greeter') };
}

const callContext = (signal: AbortSignal) =>
  new ServerCallContext({
    user: { isAuthenticated: true, userName: USER },
    state: new Map<string, unknown>([[SIGNAL_KEY, signal]]),
  });

const cancel = { tenant: '', id: 'r1', metadata: undefined };

describe('CancelTask on a running task (run service faked)', () => {
  it('the caller leaving while the run stops answers the task as it stands (working), not "ended before it could be cancelled"', async () => {
    const caller = new AbortController();
    let following!: () => void;
    const followed = new Promise<void>((resolve) => (following = resolve));
    const { service, handler: h } = handler(
      (hooks) =>
        new Promise((_resolve, reject) => {
          following();
          // As the run service does: a detaching follow rejects with the abort's reason.
          hooks.signal?.addEventListener('abort', () => reject(hooks.signal?.reason as Error), {
            once: true,
          });
        }),
    );
    const answer = h.cancelTask(cancel, callContext(caller.signal));
    await followed;
    caller.abort(new Error('client gone'));
    const task = await answer;
    expect(task.id).toBe('r1');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(service.calls).toEqual(['getRun', 'cancelRun', 'followRun']);
  });

  it('a follow cut short (the run still running) answers the task as it stands too', async () => {
    const { handler: h } = handler(() =>
      Promise.resolve(response({ status: 'running', summary: '' })),
    );
    const task = await h.cancelTask(cancel, callContext(new AbortController().signal));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
  });

  it('a run that stops cancelled answers canceled; one that finished first is still refused', async () => {
    const stopped = handler(() => Promise.resolve(response({ status: 'cancelled', summary: '' })));
    const task = await stopped.handler.cancelTask(
      cancel,
      callContext(new AbortController().signal),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    const finished = handler(() => Promise.resolve(response({ status: 'completed' })));
    await expect(
      finished.handler.cancelTask(cancel, callContext(new AbortController().signal)),
    ).rejects.toThrow(TaskNotCancelableError);
  });

  it('a follow that fails with the caller still there is not mistaken for a detach', async () => {
    const { handler: h } = handler(() => Promise.reject(new Error('store down')));
    await expect(h.cancelTask(cancel, callContext(new AbortController().signal))).rejects.toThrow(
      'store down',
    );
  });
});
