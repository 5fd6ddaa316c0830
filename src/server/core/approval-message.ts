import type { RunState } from '../../contracts/run-state.js';
import { escapeInvisible } from '../../util/visible-text.js';

/** How the thread message of a paused run introduces its calls; the page looks for it. */
export const APPROVAL_ASK = 'I need your approval to:';

/**
 * The thread message of a run that waits for approval: what the model said
 * in the turn that made the calls (it is the reply the person reads), then
 * the calls waiting.
 */
export function approvalMessage(
  state: RunState,
  pending: readonly { preview: string; path?: readonly string[] }[],
): string {
  // A subagent's call says who asks: `- desk › mailer › gmail_send: Send "Hi" to bob@…`.
  const asks = pending
    .map((p) => escapeInvisible(`- ${p.path ? `${p.path.join(' › ')}: ` : ''}${p.preview}`))
    .join('\n');
  const ask = `${APPROVAL_ASK}\n${asks}`;
  const turn = state.messages.findLast((m) => m.role === 'model');
  const said = (turn?.parts ?? [])
    .flatMap((p) => (p.kind === 'text' ? [p.text] : []))
    .join('')
    .trim();
  return said ? `${said}\n\n${ask}` : ask;
}
