import type { DecisionView } from '../api/wire-types.js';
import type { StepState } from './run-trace.js';

/** 14:02 in the reader's own clock and format. */
const clock = (iso: string): string =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

const said = (decision: DecisionView): string =>
  decision.feedback ? `: ${decision.feedback}` : '';

/** "Approved by ann at 14:02", "Rejected by ann at 14:02: send it to Carol". */
export function decisionText(decision: DecisionView): string {
  const who = `by ${decision.decidedBy} at ${clock(decision.decidedAt)}`;
  switch (decision.decision) {
    case 'approve_once':
      return `Approved ${who}`;
    case 'approve_and_always_allow_recipient':
      return `Approved ${who}, and always allowed for this recipient`;
    case 'reject':
      return `Rejected ${who}${said(decision)}`;
  }
}

/**
 * The same beside a step's badge: "Done · approved by ann at 14:02", and
 * "Rejected · by ann at 14:02: …" where the badge already says the verb.
 */
export function decisionDetail(decision: DecisionView, badge: StepState): string {
  const who = `by ${decision.decidedBy} at ${clock(decision.decidedAt)}`;
  if (decision.decision === 'reject')
    return `${badge === 'rejected' ? '' : 'rejected '}${who}${said(decision)}`;
  return `${badge === 'approved' ? '' : 'approved '}${who}`;
}
