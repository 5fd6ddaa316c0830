import { completionDeclarations, missingOutputs } from '../completion/completion.js';
import { Deadline } from './deadline.js';
import { callerAborted, turnSignal } from './either-signal.js';
import type { LoopContext } from './loop-context.js';
import type { RecoverableReason } from '../../contracts/run-result.js';
import type { Stop } from './stop.js';
import { answerDanglingCalls, takeTurn } from './take-turn.js';

export const GRACE_MS = 60_000;

/** Limits that earn a final turn; a spent cost limit does not, as the turn would cost more. */
export type GraceReason = Exclude<RecoverableReason, 'MAX_COST'>;

const EXPLANATIONS: Record<GraceReason, (ctx: LoopContext) => string> = {
  MAX_TURNS: (ctx) => `You have reached the turn limit (${ctx.maxTurns}).`,
  TIMEOUT: () => 'You have run out of time.',
  NO_COMPLETION: () => 'You stopped without finishing the task the required way.',
};

/**
 * The one grace turn (DESIGN §1): only the completion tools are offered,
 * with its own short budget outside the run's. Success is reported as GOAL
 * with `recoveredFrom` set, never as a plain GOAL.
 */
export async function graceTurn(
  ctx: LoopContext,
  from: GraceReason,
  graceMs = GRACE_MS,
): Promise<Stop> {
  const { protocol, state } = ctx;
  answerDanglingCalls(ctx, 'Not run: the execution limit was reached.');
  ctx.emit({
    type: 'recovery_started',
    message: `Execution limit reached (${from}); one final turn to finish`,
    data: { from },
  });
  const instruction =
    protocol.kind === 'complete_task'
      ? `Call \`complete_task\` now with your best output, and say that the work was interrupted. Do not call any other tool.`
      : protocol.kind === 'emit_value'
        ? `Call \`emit_value\` now for each missing output (${missingOutputs(protocol, state.emittedVars).join(', ')}) with your best values. Do not call any other tool.`
        : 'Reply now with your best final answer, and say that the work was interrupted. No tools are available.';
  state.messages.push({
    role: 'user',
    parts: [
      {
        kind: 'text',
        text: `${EXPLANATIONS[from](ctx)} You have one final chance. ${instruction}`,
      },
    ],
  });
  const budget = new Deadline(graceMs, ctx.deadline.clock);
  try {
    const signal = turnSignal(ctx, budget.signal);
    const stop = await takeTurn(ctx, completionDeclarations(protocol), signal, true);
    if (stop?.reason === 'GOAL') {
      state.recoveredFrom = from;
      return stop;
    }
    if (stop?.reason === 'ABORTED' && callerAborted(ctx)) return stop;
    if (stop?.reason === 'ERROR') return stop;
    // The budget ran out between the check and the call: no call was made.
    if (stop?.reason === 'MAX_COST') return stop;
    return { reason: from };
  } finally {
    budget.dispose();
  }
}
