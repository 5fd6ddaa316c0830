import { ToolExecutionError } from '../errors/cadre-error.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { realClock, type Clock } from '../util/clock.js';
import { canonicalJson } from '../util/canonical-json.js';
import { jsonClone, sha256Of } from '../util/json-hash.js';
import { errorFromRecord } from './recorded-error.js';
import { describeTool, toolList } from './recording-tools.js';
import type { ReplayLog } from './replay-log.js';
import type { ToolDescriptor, ToolStep, Trajectory } from './types.js';

export interface ReplayToolsOptions {
  log: ReplayLog;
  /** The real tools: read-only ones run under `liveTools`, and all of them after a fork. */
  real?: ToolRegistry | readonly Tool[];
  /** Re-run read-only tools for real instead of returning their recorded output. */
  liveTools?: boolean;
  timingScale?: number;
  /** What recorded durations are waited on; tests pass their own. */
  clock?: Clock;
}

/**
 * Tools that answer from the trajectory: each call gets the next recorded
 * outcome of the same tool, arguments and agent path. A side-effecting tool
 * is never executed during replay; only after a fork (the live model has
 * taken over) do real tools run, through the usual approvals.
 */
export function replayTools(trajectory: Trajectory, options: ReplayToolsOptions): Tool[] {
  const queues = new Map<string, ToolStep[]>();
  for (const step of trajectory.tool_steps) {
    const key = stepKey(step.path, step.tool, step.args_hash);
    queues.set(key, [...(queues.get(key) ?? []), step]);
  }
  const real = new Map(toolList(options.real).map((tool) => [tool.name, tool]));
  const descriptors = new Map<string, ToolDescriptor>(trajectory.tools.map((d) => [d.name, d]));
  for (const tool of real.values())
    if (!descriptors.has(tool.name)) descriptors.set(tool.name, describeTool(tool));

  return [...descriptors.values()].map((descriptor): Tool => {
    const realTool = real.get(descriptor.name);
    const sideEffect = descriptor.side_effect || realTool?.sideEffect === true;
    return {
      name: descriptor.name,
      description: descriptor.description,
      inputSchema: descriptor.parameters,
      sideEffect,
      ...(descriptor.default_approval ? { defaultApproval: descriptor.default_approval } : {}),
      ...(realTool?.preview
        ? { preview: (args: Record<string, unknown>) => realTool.preview?.(args) ?? '' }
        : {}),
      execute: async (args, ctx) => {
        const key = stepKey(ctx.execution.path, descriptor.name, sha256Of(jsonClone(args)));
        const recorded = queues.get(key)?.shift();
        const forked = options.log.forkedAt !== undefined;
        if (realTool && (forked || (options.liveTools && !sideEffect))) {
          options.log.tools.live++;
          return realTool.execute(args, ctx);
        }
        if (forked)
          throw new ToolExecutionError(`${descriptor.name} is not available to run live.`);
        if (!recorded) {
          const message = `Tool ${descriptor.name} ${canonicalJson(args)} at ${ctx.execution.path.join(' → ')} has no recorded result.`;
          options.log.diverge({ kind: 'tool_unrecorded', tool: descriptor.name, message });
          throw new ToolExecutionError(`Replay: ${message}`);
        }
        options.log.tools.replayed++;
        return playOutcome(recorded, ctx, options.timingScale ?? 0, options.clock ?? realClock);
      },
    };
  });
}

async function playOutcome(
  step: ToolStep,
  ctx: ToolContext,
  scale: number,
  clock: Clock,
): Promise<unknown> {
  if (scale > 0 && step.duration_ms > 0) await clock.sleep(step.duration_ms * scale, ctx.signal);
  ctx.signal.throwIfAborted();
  for (const event of step.emitted ?? []) ctx.emit(jsonClone(event));
  const outcome = step.outcome;
  switch (outcome.status) {
    case 'ok':
      return outcome.output === undefined ? undefined : jsonClone(outcome.output);
    case 'error':
      throw errorFromRecord(outcome.error);
    default:
      return outcome satisfies never;
  }
}

function stepKey(path: readonly string[], tool: string, argsHash: string): string {
  return `${path.join('\u0000')}\u0001${tool}\u0001${argsHash}`;
}
