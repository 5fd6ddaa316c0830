import { ToolRegistry } from '../tools/tool-registry.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { jsonClone, sha256Of } from '../util/json-hash.js';
import { recordError } from './recorded-error.js';
import type { StepLog } from './step-log.js';
import type { ToolDescriptor, ToolStep } from './types.js';

/** The tools as a list, whether the caller passed a registry or an array. */
export function toolList(tools: ToolRegistry | readonly Tool[] | undefined): Tool[] {
  if (!tools) return [];
  if (tools instanceof ToolRegistry) return tools.names().map((name) => tools.get(name) as Tool);
  return [...tools];
}

export function describeTool(tool: Tool): ToolDescriptor {
  return {
    name: tool.name,
    description: tool.description,
    parameters: jsonClone(tool.inputSchema),
    side_effect: tool.sideEffect,
    ...(tool.defaultApproval ? { default_approval: tool.defaultApproval } : {}),
  };
}

/**
 * The same tool, recording each execution as a tool step: arguments,
 * output or error, duration and the side-effect flag. It runs only when
 * the runtime executes it (after validation and approval), so refused
 * calls leave no step.
 */
export function recordingTool(tool: Tool, log: StepLog): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    sideEffect: tool.sideEffect,
    ...(tool.defaultApproval ? { defaultApproval: tool.defaultApproval } : {}),
    ...(tool.preview
      ? { preview: (args: Record<string, unknown>) => tool.preview?.(args) ?? '' }
      : {}),
    execute: async (args, ctx) => {
      const callArgs = jsonClone(args);
      const callId = log.claimCallId(ctx.execution.executionId, tool.name, callArgs);
      const step: ToolStep = {
        index: log.toolSteps.length,
        ...(callId ? { call_id: callId } : {}),
        tool: tool.name,
        args: callArgs,
        args_hash: sha256Of(callArgs),
        side_effect: tool.sideEffect,
        execution_id: ctx.execution.executionId,
        path: [...ctx.execution.path],
        started_at: new Date().toISOString(),
        duration_ms: 0,
        outcome: { status: 'ok', output: null },
      };
      log.toolSteps.push(step);
      const started = performance.now();
      // What the tool emits itself is kept with its step, so replay can emit it again.
      const emit: ToolContext['emit'] = (event) => {
        (step.emitted ??= []).push(jsonClone(event));
        ctx.emit(event);
      };
      try {
        const output = await tool.execute(args, { ...ctx, emit });
        // An undefined output stays absent, so the replayed answer is the same JSON.
        step.outcome =
          output === undefined ? { status: 'ok' } : { status: 'ok', output: jsonClone(output) };
        return output;
      } catch (error) {
        step.outcome = { status: 'error', error: recordError(error) };
        throw error;
      } finally {
        step.duration_ms = Math.round(performance.now() - started);
      }
    },
  };
}
