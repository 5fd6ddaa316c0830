import type { RunOutcome } from '../../runtime/loop/executor.js';
import type { Run } from '../../store/types.js';
import { approvalMessage } from './approval-message.js';
import type { ParkedCall } from './park-for-approval.js';
import type { RunRecorder } from './run-recorder.js';

/** The step's end: parked for approval, or finished; undefined when the run was lost meanwhile. */
export async function settleStep(
  run: Run,
  recorder: RunRecorder,
  outcome: RunOutcome,
  parked: readonly ParkedCall[],
): Promise<Run | undefined> {
  if (outcome.status === 'paused') {
    const result = await recorder.park({
      state: outcome.state,
      summary: 'Waiting for approval.',
      message: approvalMessage(outcome.state, outcome.pending),
      approvals: parked.map((p) => ({
        actionId: p.actionId,
        callId: p.callId,
        tool: p.tool,
        inputHash: p.inputHash,
        definitionHash: run.definitionHash,
        userId: run.userId,
      })),
    });
    return result?.run;
  }
  const result = outcome.result;
  const ok = result.terminate_reason === 'GOAL';
  const cancelled = result.terminate_reason === 'ABORTED';
  return recorder.finish({
    status: ok ? 'completed' : cancelled ? 'cancelled' : 'failed',
    summary: cancelled ? 'Cancelled.' : result.final_message,
    usage: result.usage,
    message: result.content,
    ...(ok
      ? {}
      : {
          errorCode: cancelled
            ? 'cancelled'
            : (result.error?.code ?? result.terminate_reason.toLowerCase()),
        }),
  });
}
