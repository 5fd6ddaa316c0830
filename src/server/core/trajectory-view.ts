import type { FunctionCallPart, FunctionResponsePart } from '../../model/types.js';
import type { ModelStep, Trajectory } from '../../trajectory/types.js';
import type {
  TrajectoryCallResult,
  TrajectoryStepView,
  TrajectoryView,
} from '../trajectory-view-types.js';
import { continues, ownSteps, promptIndex, textOf } from './own-steps.js';

/** Outputs longer than this are cut: the page shows them, a download would keep them whole. */
const MAX_OUTPUT = 20_000;

/** A recorded run as the page steps through it. */
export function trajectoryView(trajectory: Trajectory): TrajectoryView {
  const own = ownSteps(trajectory);
  const agent = trajectory.agent.name;
  const paths = turnPaths(trajectory);
  const first = trajectory.model_steps[0];
  const prompt = first
    ? textOf(first.request.messages[promptIndex(trajectory)])
    : typeof trajectory.inputs.prompt === 'string'
      ? trajectory.inputs.prompt
      : '';
  const { metadata } = trajectory;
  return {
    schema_version: trajectory.schema_version,
    runId: trajectory.run_id,
    agent,
    prompt,
    inputs: trajectory.inputs,
    model: metadata.model,
    startedAt: metadata.started_at,
    durationMs: metadata.duration_ms,
    terminateReason: metadata.terminate_reason,
    finalMessage: metadata.final_result.final_message,
    steps: trajectory.model_steps.map((step, i) => {
      const forkable = own[i] === true;
      return stepView(trajectory, step, {
        forkable,
        path: paths?.[i] ?? (forkable ? [agent] : [agent, 'subagent']),
      });
    }),
  };
}

function stepView(
  trajectory: Trajectory,
  step: ModelStep,
  where: { forkable: boolean; path: string[] },
): TrajectoryStepView {
  let thought = '';
  let text = '';
  const calls: FunctionCallPart[] = [];
  for (const chunk of step.chunks) {
    if (chunk.type === 'thought') thought += chunk.text;
    else if (chunk.type === 'text') text += chunk.text;
    else if (chunk.type === 'function_call') calls.push(chunk.call);
  }
  return {
    index: step.index,
    ...where,
    thought,
    text,
    calls: calls.map((call) => ({
      id: call.id,
      tool: call.name,
      args: call.args,
      result: resultOf(trajectory, step, call),
    })),
    durationMs: step.duration_ms,
    ...(step.usage ? { usage: step.usage } : {}),
    ...(step.error ? { error: step.error.message } : {}),
  };
}

/** The answer the model got next (the next request of the same conversation), else the tool's record. */
function resultOf(
  trajectory: Trajectory,
  step: ModelStep,
  call: FunctionCallPart,
): TrajectoryCallResult {
  const next = trajectory.model_steps.find(
    (later) => later.index > step.index && continues(later, step),
  );
  const answer = next?.request.messages
    .slice(step.request.messages.length)
    .flatMap((m) => m.parts)
    .find((p): p is FunctionResponsePart => p.kind === 'function_response' && p.id === call.id);
  if (answer)
    return 'error' in answer.response
      ? { status: 'error', error: answer.response.error }
      : output(answer.response.output);
  const ran = trajectory.tool_steps.find((t) => t.call_id === call.id && t.tool === call.name);
  if (!ran) return { status: 'unknown' };
  return ran.outcome.status === 'ok'
    ? output(ran.outcome.output)
    : { status: 'error', error: ran.outcome.error.message };
}

function output(value: unknown): TrajectoryCallResult {
  const text =
    typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value, null, 2);
  return text.length > MAX_OUTPUT
    ? { status: 'ok', output: text.slice(0, MAX_OUTPUT), truncated: true }
    : { status: 'ok', output: text };
}

/** Each model call follows its turn's `turn_started`; when they pair up, that event names the agent. */
function turnPaths(trajectory: Trajectory): string[][] | undefined {
  const turns = trajectory.events.filter((e) => e.type === 'turn_started');
  if (turns.length !== trajectory.model_steps.length) return undefined;
  return turns.map((e) => [...e.path]);
}
