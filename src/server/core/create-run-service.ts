import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { conversationResolver } from '../../model/conversation-resolver.js';
import { createRuntime } from '../../runtime/loop/runtime.js';
import { telemetryFromEnv } from '../../telemetry/telemetry-from-env.js';
import type { RunService } from '../run-service-types.js';
import { noReachableModel } from './model-reach.js';
import { readViews } from './read-views.js';
import { grantViews } from './grant-views.js';
import { resolveApproval } from './resolve-approval.js';
import { runPrompt } from './run-prompt.js';
import { forkRun } from './fork-run.js';
import { runTrajectory } from './run-trajectory.js';
import { trajectoryView } from './trajectory-view.js';
import { attachRun, type Attacher } from './attach-run.js';
import { agentPicker } from './pick-definition.js';
import { runResponse } from './views.js';
import { createRunChanges, type RunChanges } from '../worker/run-changes.js';
import { startRunWorker } from '../worker/run-worker.js';
import type { RunWorker, RunWorkerOptions } from '../worker/worker-types.js';
import type { ServerContext } from './server-context.js';
import { dropPausedRecording } from './paused-recording.js';
import { loadProjectSetup } from './project-setup.js';
import type { RunServiceOptions } from './run-service-options.js';

export type { RunServiceOptions };

const DEFAULT_WORKER: RunWorkerOptions = {
  leaseMs: 15_000,
  pollMs: 1_000,
  concurrency: 64,
  // Wall time: on a busy process a one-turn run's own wait for the event loop passes 200 ms,
  // and storing it early then doubles its writes just when CPU is short (the bench measures it).
  storeAfterMs: 1_000,
  eventFlushMs: 100,
};

/**
 * The server core: agents, tools, policy and the store, wired once, plus
 * (by default) a run worker. Nothing is repaired at start: runs whose owner
 * died are taken over by whichever worker finds their lease expired.
 */
export async function createRunService(options: RunServiceOptions): Promise<RunService> {
  const { store } = options;
  const ctx = await serverContext(options);
  const changes = await createRunChanges(store, options.clock ? { clock: options.clock } : {});
  const worker = options.worker === false ? undefined : runWorker(ctx, changes, options);
  const attach: Attacher = {
    changes,
    pollMs: options.pollMs ?? 250,
    wake: () => worker?.wake(),
    ...(worker ? { worker } : {}),
    newId: store.newId,
  };
  let closed = false;
  const drain = async (graceMs: number) => {
    const result = (await worker?.drain(graceMs)) ?? { finished: 0, handedOver: 0 };
    if (!closed) {
      closed = true;
      await changes.close();
      await ctx.telemetry?.shutdown();
    }
    return result;
  };
  return {
    run: (request, hooks) => runPrompt(ctx, attach, request, hooks),
    resolveApproval: (request, hooks) => resolveApproval(ctx, attach, request, hooks),
    async cancelRun(userId, runId, signal) {
      const run = await store.runs.requestCancel(runId, userId, { signal });
      if (!run) return undefined;
      // Driven here: stop it now rather than at the next heartbeat.
      worker?.cancel(runId);
      // Cancelled while it waited: it will not resume, so its recording so far goes too.
      if (run.status === 'cancelled') await dropPausedRecording(ctx, run.id);
      changes.publish({ kind: 'run', runId });
      return runResponse(ctx, userId, run);
    },
    async followRun(userId, runId, after, hooks) {
      const found = await store.runs.get(runId, userId, { signal: hooks.signal });
      if (!found) return undefined;
      hooks.onStarted?.({ runId, threadId: found.threadId });
      const run = await attachRun(ctx, userId, runId, {
        ...attach,
        after,
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        ...(hooks.onEvent ? { onEvent: hooks.onEvent } : {}),
      });
      return runResponse(ctx, userId, run);
    },
    ...readViews(ctx),
    ...grantViews(ctx),
    async trajectory(userId, runId, signal) {
      const found = await runTrajectory(ctx, userId, runId, signal);
      return found && trajectoryView(found.trajectory);
    },
    async trajectoryFile(userId, runId, signal) {
      return (await runTrajectory(ctx, userId, runId, signal))?.trajectory;
    },
    forkRun: (request, hooks) => forkRun(ctx, attach, request, hooks),
    drain,
    close: async () => {
      await drain(0);
    },
  };
}

/** What every request shares: the project as loaded, models, the runtime and telemetry. */
async function serverContext(options: RunServiceOptions): Promise<ServerContext> {
  const { store, cwd, env } = options;
  const project = await loadProjectSetup(options);
  const { agents, defaultAgent, workspaces } = project;
  const resolveModel = conversationResolver(env, cwd);
  const defaultModel = options.model ?? env.CADRE_MODEL;
  // Resolving every agent's model costs a client each: only when someone shows the warning.
  const noModel =
    options.onNoModel === undefined || options.modelClient
      ? undefined
      : noReachableModel(agents, defaultAgent, defaultModel, env, cwd);
  if (noModel) options.onNoModel?.(noModel);
  // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set; nothing of OpenTelemetry loads otherwise.
  const telemetry = await telemetryFromEnv(env);
  return {
    ...project,
    store,
    // `--model` is only the default: an agent that names its model keeps it (`name` is already
    // the agent's model, else the default), so the stored run names the model really used.
    resolveModel: (name, thread) =>
      options.modelClient
        ? { client: options.modelClient, model: name }
        : resolveModel(name, thread),
    ...(defaultModel ? { defaultModel } : {}),
    runtime: await createRuntime(),
    // Shared: as before, in the workspace's `.cadre/`; per user: in the server's own `.cadre/`.
    trajectories:
      workspaces.kind === 'shared'
        ? join(workspaces.folder, '.cadre', 'runs')
        : join(await realpath(cwd), '.cadre', 'runs'),
    ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
    pickAgent: agentPicker({ agents, defaultAgent }),
    ...(telemetry ? { telemetry } : {}),
  };
}

/** This process's run worker, with the defaults above under whatever the options set. */
function runWorker(ctx: ServerContext, changes: RunChanges, options: RunServiceOptions): RunWorker {
  return startRunWorker(ctx, changes, {
    ...DEFAULT_WORKER,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(typeof options.worker === 'object' ? options.worker : {}),
    // Without a reporter, failures outside any request still reach stderr (never lost).
    onError:
      options.onError ??
      ((error, runId) =>
        console.error(`cadre run worker${runId ? ` (run ${runId})` : ''}:`, error)),
  });
}
