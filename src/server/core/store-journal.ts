import type { RunResult } from '../../contracts/run-result.js';
import type { RunJournal } from '../../contracts/run-journal.js';
import type { RunState } from '../../contracts/run-state.js';
import type { Run, RunEnding } from '../../store/types.js';
import type { actionGuard } from './action-guard.js';
import { approvalMessage } from './approval-message.js';
import type { WaitingCall } from './pause-for-approval.js';
import type { RunWriter } from './run-writer.js';

/**
 * A server run's journal, over the store's aggregates (one implementation
 * for SQLite and PostgreSQL, which share the Kysely store): the run's lease
 * and saves through its writer (which writes only while this process holds
 * the run), the run-once claims through its action records (`guard`).
 * `paused` is filled as the loop asks for approval: the calls a pause waits on.
 * A pause or an ending gives the stored run, undefined when the run was lost.
 */
export function storeJournal(
  run: Run,
  writer: RunWriter,
  guard: ReturnType<typeof actionGuard>,
  paused: readonly WaitingCall[],
): RunJournal<Run> {
  return {
    // A run started here is stored, owned by this process, before anything names it.
    lease: async () => {
      if (!writer.stored()) await writer.store();
    },
    // The state is stored only before side effects run (and with the approvals when the run
    // pauses). A process that dies leaves that checkpoint: the next owner answers its calls from
    // their action records and asks the model again for any later turn, which had no effects.
    save: (state, point) =>
      point === 'before_effects'
        ? writer.checkpoint(structuredClone(state) as RunState)
        : Promise.resolve(),
    pause: async (state, pending) => {
      const result = await writer.pause({
        state,
        summary: 'Waiting for approval.',
        message: approvalMessage(state, pending),
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
    },
    claim: guard.claim,
    settle: guard.settle,
    finish: (result) => writer.finish(endingOf(result)),
  };
}

/** How a finished loop ends the stored run. */
function endingOf(result: RunResult): RunEnding {
  const ok = result.terminate_reason === 'GOAL';
  const cancelled = result.terminate_reason === 'ABORTED';
  return {
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
  };
}
