import type { ApprovalBinding } from './run-state.js';
import type { ExecutionContext } from '../events/types.js';

/** A side-effecting call waiting for a person's decision. */
export interface ConfirmationRequest {
  runId: string;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  /**
   * The tool's one-line description of what will happen, made visible
   * (`visibleText`): a display prints it as it is, never interpreting it.
   */
  preview: string;
  /** Why the gate asks (the policy's reason, or an interceptor's). */
  reason: string;
  execution: ExecutionContext;
  /** What an approval of this request is bound to (store it with the approval). */
  binding?: ApprovalBinding;
  /**
   * false: something above this call cannot keep a paused subagent (a code
   * agent run to the end with `run`), so `pause` will be read as a refusal.
   */
  canPause?: boolean;
}

/** Who asks, from the root: `assistant › mailer › gmail_send`. */
export const approvalPath = (request: Pick<ConfirmationRequest, 'execution' | 'tool'>): string =>
  [...request.execution.path, request.tool].join(' › ');

/**
 * `binding` on an approval given to `resume`: what the person saw (the
 * pending call's `binding`); the call runs only if it still matches.
 */
export type ConfirmationDecision =
  | { kind: 'approve'; binding?: ApprovalBinding }
  /** Approve this call and every later call of the same tool in this run. */
  | { kind: 'approve_always'; binding?: ApprovalBinding }
  | { kind: 'reject'; feedback?: string }
  /**
   * No person could be asked (no terminal, and the call was not allowed in
   * advance): it is not run, and the model is told it was not refused.
   */
  | { kind: 'unattended' }
  /** Decide later: the run pauses (`start` / `resume`), e.g. behind an HTTP approval card. */
  | { kind: 'pause' };

/**
 * A decision given to `resume`: a person's, or `ask_again` when what they
 * approved was found changed before the resume (the server's check of what
 * the approval card showed): the call is not run and the person is asked again.
 */
export type ResumeDecision = ConfirmationDecision | { kind: 'ask_again'; reason: string };

export type ConfirmationHandler = (
  request: ConfirmationRequest,
  signal: AbortSignal,
) => Promise<ConfirmationDecision>;

/** The library default: side effects are refused unless the caller decides otherwise (fail closed). */
export const refuseSideEffects: ConfirmationHandler = () =>
  Promise.resolve({
    kind: 'reject',
    feedback: 'Side effects are not allowed in this run (no approval handler was configured).',
  });

/** Approves the named tools (or all) without asking; the rest stay unrun, for no one was asked. */
export function approveTools(tools: readonly string[] | 'all'): ConfirmationHandler {
  return (request) =>
    Promise.resolve(
      tools === 'all' || tools.includes(request.tool)
        ? { kind: 'approve' }
        : { kind: 'unattended' },
    );
}
