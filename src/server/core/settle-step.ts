import type { RunOutcome } from '../../runtime/loop/executor.js';
import type { Run } from '../../store/types.js';
import { approvalMessage } from './approval-message.js';
import type { WaitingCall } from './pause-for-approval.js';
import type { RunWriter } from './run-writer.js';

/** The step's end: paused for approval, or finished; undefined when the run was lost meanwhile. */
export async function settleStep(
  run: Run,
  writer: RunWriter,
  outcome: RunOutcome,
  paused: readonly WaitingCall[],
): Promise<Run | undefined> {
  if (outcome.status === 'paused') {
    const result = await writer.pause({
      state: outcome.state,
      summary: 'Waiting for approval.',
      message: approvalMessage(outcome.state, outcome.pending),
      approvals: paused.map((p) => ({
        actionId: p.actionId,
        callId: p.callId,
        tool: p.tool,
        inputHash: p.inputHash,
        definitionHash: p.definitionHash ?? run.definitionHash,
        ...(p.toolClass ? { toolClass: p.toolClass } : {}),
        userId: run.userId,
      })),
    });
    return result?.run;
  }
  const result = outcome.result;
  const ok = result.terminate_reason === 'GOAL';
  const cancelled = result.terminate_reason === 'ABORTED';
  return writer.finish({
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
