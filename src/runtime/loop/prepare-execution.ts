import { randomUUID } from '../../util/builtins-on-demand.js';
import { resolve } from 'node:path';
import { DEFAULT_PRICES } from '../../cost/prices.js';
import { rootExecution } from '../../events/execution-context.js';
import type { EventSink, ExecutionContext } from '../../events/types.js';
import { checkedClient } from '../../model/checked-client.js';
import type { ModelClient } from '../../model/types.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import { noToolSource } from '../../tools/tool-source.js';
import { refuseSideEffects } from '../../contracts/confirmation.js';
import { flatString } from '../../util/flat-string.js';
import { RunEvents } from './run-events.js';
import { memoryJournal } from './memory-journal.js';
import { FALLBACK_MODEL, type ExecutionOptions } from './run-options.js';
import { createRuntime, type Runtime } from './runtime.js';
import {
  createSpawnServices,
  type LaunchChild,
  type SpawnServices,
} from '../subagents/spawn-services.js';

export interface PreparedExecution {
  runId: string;
  execution: ExecutionContext;
  emit: EventSink;
  services: SpawnServices;
  /** True when this execution created the services: it is the root and closes them. */
  root: boolean;
}

/**
 * Ids, event stamping and the services a run tree shares. A root run
 * creates them from its options and `runtime`; a child receives its root's.
 */
export function prepareExecution(
  options: ExecutionOptions,
  agent: string,
  launch: LaunchChild,
  runtime: Runtime | undefined,
): PreparedExecution {
  const runId = options.runId ?? flatString(randomUUID());
  const execution = options.execution ?? rootExecution(runId, agent);
  const workspace = resolve(options.workspace ?? process.cwd());
  const services = options.services ?? rootServices(options, runId, workspace, launch, runtime);
  return {
    runId,
    execution,
    emit: services.events.sinkFor(execution),
    services,
    root: options.services === undefined,
  };
}

/**
 * The services of a new run tree, from its options. Each optional one is set
 * only when given (assignments, not conditional spreads: a run makes these
 * once, and each spread made an object more).
 */
function rootServices(
  options: ExecutionOptions,
  runId: string,
  workspace: string,
  launch: LaunchChild,
  runtime: Runtime | undefined,
): SpawnServices {
  const services = createSpawnServices(
    {
      pool:
        options.tools instanceof ToolRegistry
          ? options.tools
          : new ToolRegistry(options.tools ?? []),
      confirm: options.confirm ?? refuseSideEffects,
      runtime: runtime ?? runtimeMissing(),
      events:
        options.events ??
        new RunEvents(runId, options.onEvent, options.afterEventSeq, options.clock),
      workspace,
      prices: options.prices ?? DEFAULT_PRICES,
      mcp: (options.adapters?.toolSource ?? noToolSource)({
        ...(options.mcpServers ? { servers: options.mcpServers } : {}),
        env: process.env,
        cwd: workspace,
      }),
      journal: options.journal ?? memoryJournal(),
      launch,
      ...(options.clock ? { clock: options.clock } : {}),
    },
    options.limits,
  );
  // A client given by the caller is checked once, here, for the whole run tree.
  if (options.model) services.model = checkedClient(options.model);
  if (options.agents) services.agents = options.agents;
  if (options.resolveModel) services.resolveModel = options.resolveModel;
  if (options.defaultModel) services.defaultModel = options.defaultModel;
  if (options.protectedPaths) services.protectedPaths = options.protectedPaths;
  if (options.traceCarrier) services.traceCarrier = options.traceCarrier;
  if (options.contextWindows) services.contextWindows = options.contextWindows;
  if (options.adapters?.agentKinds) services.agentKinds = options.adapters.agentKinds;
  if (options.graceMs !== undefined) services.graceMs = options.graceMs;
  if (options.interceptors) services.interceptors = options.interceptors;
  if (options.policy) services.policy = options.policy;
  return services;
}

/** The runtime a root run uses: the caller's, else a new one (Ajv loads for it). */
export function runtimeFor(options: ExecutionOptions): Runtime | Promise<Runtime> | undefined {
  if (options.services) return undefined;
  return options.runtime ?? createRuntime();
}

function runtimeMissing(): never {
  throw new TypeError('A root run needs a runtime: pass runtimeFor(options).');
}

/** The client for an agent's model: an explicit client wins, else the resolver. */
export function pickModel(
  requestedModel: string | undefined,
  services: SpawnServices,
): { client: ModelClient; model: string } {
  const requested = requestedModel ?? services.defaultModel ?? FALLBACK_MODEL;
  if (services.model) return { client: services.model, model: requested };
  if (!services.resolveModel)
    throw new TypeError('Running an agent needs `model` (a ModelClient) or `resolveModel`.');
  const resolved = services.resolveModel(requested);
  return { ...resolved, client: checkedClient(resolved.client) };
}
