import type { ConfirmationHandler } from '../contracts/confirmation.js';
import { approvalPath, approveTools } from '../contracts/confirmation.js';
import type { ApproveList } from './approve-names.js';
import type { CliIO } from './cli-io.js';
import type { UnattendedCalls } from './unattended-calls.js';
import { escapeInvisible } from '../util/visible-text.js';

/**
 * Approves what `--approve` covers; the rest is not run, for no one can be
 * asked (the model is told so, and `unattended` hears of each such tool).
 */
export function approvedOnly(
  approvals: ApproveList,
  unattended?: UnattendedCalls,
): ConfirmationHandler {
  const refuse = approveTools([]);
  return (request, signal) => {
    if (approvals.covers(request.tool)) return Promise.resolve({ kind: 'approve' });
    unattended?.note(request.tool);
    return refuse(request, signal);
  };
}

/**
 * How the CLI decides side effects (DESIGN §4): `--approve` names are
 * approved; otherwise a terminal asks (yes / no / always); without a
 * terminal the call is not run (not a refusal: no one was asked).
 */
export function terminalConfirm(
  io: CliIO,
  approvals: ApproveList,
  unattended?: UnattendedCalls,
): ConfirmationHandler {
  const fallback = approvedOnly(approvals, unattended);
  return async (request, signal) => {
    if (approvals.covers(request.tool) || !io.ask) return fallback(request, signal);
    for (;;) {
      // A subagent's call says who asks: `assistant › mailer › gmail_send: Send to …`.
      const who = request.execution.depth > 0 ? `${approvalPath(request)}: ` : '';
      // The preview is made visible where it is built; guarded again here, since a
      // terminal would act on a control character instead of showing it.
      const [preview, tool] = [escapeInvisible(request.preview), escapeInvisible(request.tool)];
      const answer = (
        await io.ask(
          `\nAllow ${escapeInvisible(who)}${preview}? [y]es / [n]o / [a]lways for ${tool} in this run: `,
          signal,
        )
      )
        .trim()
        .toLowerCase();
      if (answer === 'y' || answer === 'yes') return { kind: 'approve' };
      if (answer === 'a' || answer === 'always') return { kind: 'approve_always' };
      if (answer === 'n' || answer === 'no') {
        const feedback = (await io.ask('Why not? (optional, told to the agent): ', signal)).trim();
        return feedback ? { kind: 'reject', feedback } : { kind: 'reject' };
      }
    }
  };
}
