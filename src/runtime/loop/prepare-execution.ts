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
  const services =
    options.services ??
    createSpawnServices(
      {
        pool:
          options.tools instanceof ToolRegistry
            ? options.tools
            : new ToolRegistry(options.tools ?? []),
        ...(options.agents ? { agents: options.agents } : {}),
        // A client given by the caller is checked once, here, for the whole run tree.
        ...(options.model ? { model: checkedClient(options.model) } : {}),
        ...(options.resolveModel ? { resolveModel: options.resolveModel } : {}),
        ...(options.defaultModel ? { defaultModel: options.defaultModel } : {}),
        confirm: options.confirm ?? refuseSideEffects,
        runtime: runtime ?? runtimeMissing(),
        events:
          options.events ??
          new RunEvents(runId, options.onEvent, options.afterEventSeq, options.clock),
        ...(options.clock ? { clock: options.clock } : {}),
        workspace,
        ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
        prices: options.prices ?? DEFAULT_PRICES,
        ...(options.traceCarrier ? { traceCarrier: options.traceCarrier } : {}),
        ...(options.contextWindows ? { contextWindows: options.contextWindows } : {}),
        mcp: (options.adapters?.toolSource ?? noToolSource)({
          ...(options.mcpServers ? { servers: options.mcpServers } : {}),
          env: process.env,
          cwd: workspace,
        }),
        ...(options.adapters?.agentKinds ? { agentKinds: options.adapters.agentKinds } : {}),
        ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
        journal: options.journal ?? memoryJournal(),
        ...(options.interceptors ? { interceptors: options.interceptors } : {}),
        ...(options.policy ? { policy: options.policy } : {}),
        launch,
      },
      options.limits,
    );
  return {
    runId,
    execution,
    emit: services.events.sinkFor(execution),
    services,
    root: options.services === undefined,
  };
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
