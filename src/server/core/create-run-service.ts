import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { builtinAgentEntries } from '../../agents/builtin/index.js';
import { discoverAgents } from '../../agents/discover-agents.js';
import { loadActiveAgent } from '../../compat/active-agent.js';
import { conversationResolver } from '../../model/conversation-resolver.js';
import type { ModelClient } from '../../model/types.js';
import { loadGatePolicy } from '../../policy/policy-config.js';
import { createRuntime } from '../../runtime/loop/runtime.js';
import { TASK_TOOL } from '../../runtime/subagents/task-tool.js';
import type { Store } from '../../store/types.js';
import type { Clock } from '../../util/clock.js';
import { loadProjectMcpConfig } from '../../mcp/project-mcp-config.js';
import { toolAliasesOf } from '../../tools/tool-aliases.js';
import { loadPrices } from '../../cost/price-file.js';
import { loadContextWindows } from '../../cost/context-windows.js';
import { telemetryFromEnv } from '../../telemetry/telemetry-from-env.js';
import { servesModelIn } from '../../definition/model-names.js';
import { availableTools } from '../../tools/builtin/index.js';
import { discoverProjectTools } from '../../tools/discover-tool-files.js';
import { createCalendarEventTool } from '../../tools/calendar/calendar-event-create.js';
import { createGmailSendTool } from '../../tools/mail/gmail-send.js';
import type { RunService } from '../run-service-types.js';
import { SERVER_ASSISTANT } from '../../agents/default-assistant.js';
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
import { createRunChanges } from '../worker/run-changes.js';
import { startRunWorker } from '../worker/run-worker.js';
import type { RunWorkerOptions } from '../worker/worker-types.js';
import type { ServerContext } from './server-context.js';
import type { WorkspacePlan } from './run-workspace.js';
import { openProjectTrust } from '../../trust/project-trust.js';
import { dropPausedRecording } from './paused-recording.js';
import { refusalLines, untrustedHint } from '../../trust/trust-report.js';

export interface RunServiceOptions {
  store: Store;
  /** The project folder: agents, policy, MCP servers and prices are read from here. */
  cwd: string;
  /**
   * Where the agents' tools work: one folder for every run (default: `cwd`), or
   * (`cadre serve`) a folder of each user's own, or each thread's, under a base.
   */
  workspace?: string | WorkspacePlan;
  /** The server's own files that no tool may reach, besides each workspace's `.cadre/`. */
  protectedPaths?: readonly string[];
  env: NodeJS.ProcessEnv;
  /** `cadre serve --model`: used when an agent names no model. */
  model?: string;
  /** A client to use for every agent (tests with scripted models). */
  modelClient?: ModelClient;
  /** Agent folders besides ./agents and .cadre/agents. */
  agentDirs?: string[];
  /** A YAML policy file (rules, trust); else CADRE_POLICY. */
  policyFile?: string;
  /**
   * This process's run worker (default on). Off: runs are only queued and
   * followed here, and `cadre worker` processes on the same database drive them.
   */
  worker?: boolean | Partial<RunWorkerOptions>;
  /** How often attached requests look at a run when no notification arrives (default 250 ms). */
  pollMs?: number;
  /**
   * What the worker's queue poll, backoff and heartbeat and the attached
   * requests' polls wait on (default the real clock; tests step a ManualClock).
   */
  clock?: Clock;
  /** Reports failures outside any request (a worker's store errors). */
  onError?: (error: unknown, runId: string) => void;
  /** Reports what start-up left out (a code tool that failed to load), each naming the file. */
  onWarning?: (message: string) => void;
  /** No agent can reach its model (no key for its provider): said once, at start. */
  onNoModel?: (message: string) => void;
  /**
   * Workspace trust (`cadre serve` and `cadre worker` always set it): the
   * project's code tools, agent modules, MCP files and commands, settings,
   * policy and price files load only when trusted (`cadre trust`), or all of
   * them with `oneRun` (`--trust-project`), and never from inside
   * `workspace`, where the agents can write. Absent: everything loads (code
   * that embeds the server vouches for its own folder).
   */
  trust?: { oneRun?: boolean };
}

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
  const { store, cwd, env } = options;
  const workspaces = await workspacePlan(options.workspace, cwd);
  // Agents write anywhere under this folder: no project code is loaded from inside it.
  const workspace = workspaces.kind === 'shared' ? workspaces.folder : workspaces.base;
  const trust = options.trust
    ? await openProjectTrust({
        cwd,
        env,
        ...(options.trust.oneRun ? { oneRun: true } : {}),
        denied: [
          {
            folder: workspace,
            why: `it lies inside the agents' workspace (${workspace}), where they can write it; keep project code outside it`,
          },
        ],
      })
    : undefined;
  const gate = trust?.gate;
  const builtinTools = [
    ...availableTools(env),
    createGmailSendTool({ env }),
    createCalendarEventTool({ env }),
  ];
  // Code tools from the project's tools/ and .cadre/tools (as the CLI finds them); a broken one is skipped.
  const code = await discoverProjectTools({
    cwd,
    reserved: builtinTools.map((t) => t.name),
    ...(gate ? { gate } : {}),
    ...(env.HOME ? { home: env.HOME } : {}),
  });
  for (const warning of code.warnings) options.onWarning?.(warning);
  const tools = [...builtinTools, ...code.tools.map((entry) => entry.tool)];
  const { servers: mcpServers } = await loadProjectMcpConfig(cwd, gate);
  const prices = await loadPrices(cwd, env, gate);
  const contextWindows = await loadContextWindows(cwd, gate);
  const hint = gate && untrustedHint(gate.refused());
  const trusting = { ...(gate ? { gate } : {}), ...(hint ? { untrustedHint: hint } : {}) };
  const toolAliases = toolAliasesOf(tools);
  const { registry } = await discoverAgents({
    cwd,
    knownTools: [...tools.map((t) => t.name), TASK_TOOL],
    load: {
      mcpServers: Object.keys(mcpServers),
      toolAliases,
      servesModel: servesModelIn(env),
      // The operator's own ~/.gemini/settings.json and ~/.claude.json stay theirs, not every user's.
      userSettings: false,
      ...trusting,
    },
    builtins: builtinAgentEntries(),
    ...(options.agentDirs ? { folders: options.agentDirs } : {}),
    ...(env.HOME ? { home: env.HOME } : {}),
  });
  const names = new Set(registry.names());
  const active = env.ACTIVE_AGENT_PATH
    ? await loadActiveAgent(env.ACTIVE_AGENT_PATH, {
        cwd,
        knownTools: tools.map((t) => t.name),
        toolAliases,
        mcpServers: Object.keys(mcpServers),
        servesModel: servesModelIn(env),
        userSettings: false,
        isKnownAgent: (n) => names.has(n),
        ...trusting,
      })
    : undefined;
  if (options.policyFile ?? env.CADRE_POLICY)
    await gate?.allows(resolve(cwd, options.policyFile ?? env.CADRE_POLICY ?? ''), 'policy');
  if (trust)
    for (const line of refusalLines(trust.gate.refused(), trust.notes)) options.onWarning?.(line);
  // Checked before anything runs: a bad file or an unknown CADRE_TRUST is a setup error.
  const policy = await loadGatePolicy({
    ...(options.policyFile ? { file: options.policyFile } : {}),
    env,
    cwd,
    ...(gate ? { gate } : {}),
  });
  const resolveModel = conversationResolver(env, cwd);
  const defaultModel = options.model ?? env.CADRE_MODEL;
  const defaultAgent = active?.kind === 'definition' ? active.definition : SERVER_ASSISTANT;
  // Resolving every agent's model costs a client each: only when someone shows the warning.
  const noModel =
    options.onNoModel === undefined || options.modelClient
      ? undefined
      : noReachableModel(registry, defaultAgent, defaultModel, env, cwd);
  if (noModel) options.onNoModel?.(noModel);
  // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set; nothing of OpenTelemetry loads otherwise.
  const telemetry = await telemetryFromEnv(env);
  const ctx: ServerContext = {
    store,
    agents: registry,
    tools,
    mcpServers,
    prices,
    contextWindows,
    // `--model` is only the default: an agent that names its model keeps it (`name` is already
    // the agent's model, else the default), so the stored run names the model really used.
    resolveModel: (name, thread) =>
      options.modelClient
        ? { client: options.modelClient, model: name }
        : resolveModel(name, thread),
    ...(defaultModel ? { defaultModel } : {}),
    runtime: await createRuntime(),
    defaultAgent,
    policy,
    workspaces,
    // Shared: as before, in the workspace's `.cadre/`; per user: in the server's own `.cadre/`.
    trajectories:
      workspaces.kind === 'shared'
        ? join(workspaces.folder, '.cadre', 'runs')
        : join(await realpath(cwd), '.cadre', 'runs'),
    ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
    pickAgent: agentPicker({ agents: registry, defaultAgent }),
    ...(telemetry ? { telemetry } : {}),
  };
  const changes = await createRunChanges(store, options.clock ? { clock: options.clock } : {});
  const worker =
    options.worker === false
      ? undefined
      : startRunWorker(ctx, changes, {
          ...DEFAULT_WORKER,
          ...(options.clock ? { clock: options.clock } : {}),
          ...(typeof options.worker === 'object' ? options.worker : {}),
          // Without a reporter, failures outside any request still reach stderr (never lost).
          onError:
            options.onError ??
            ((error, runId) =>
              console.error(`cadre run worker${runId ? ` (run ${runId})` : ''}:`, error)),
        });
  const attach: Attacher = {
    changes,
    pollMs: options.pollMs ?? 250,
    wake: () => worker?.wake(),
    ...(worker ? { worker } : {}),
    newId: store.newId,
  };
  const reads = readViews(ctx);
  let closed = false;
  const drain = async (graceMs: number) => {
    const result = (await worker?.drain(graceMs)) ?? { finished: 0, handedOver: 0 };
    if (!closed) {
      closed = true;
      await changes.close();
      await telemetry?.shutdown();
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
    ...reads,
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

/** The plan with real paths: tools compare paths after resolving links. */
async function workspacePlan(
  option: string | WorkspacePlan | undefined,
  cwd: string,
): Promise<WorkspacePlan> {
  if (option === undefined || typeof option === 'string')
    return { kind: 'shared', folder: await realpath(option ?? cwd) };
  switch (option.kind) {
    case 'shared':
      return { kind: 'shared', folder: await realpath(option.folder) };
    case 'per-user':
      return { ...option, base: await realpath(option.base) };
    default:
      return option satisfies never;
  }
}
