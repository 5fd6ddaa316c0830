import { decisionDetail } from '../state/decision-text.js';
import { formatDuration } from '../state/format.js';
import type { StepState, ToolStep } from '../state/run-trace.js';
import { escapeInvisible as shown } from '../../../src/util/visible-text.js';

const LABEL: Record<StepState, string> = {
  running: 'Running',
  awaiting_approval: 'Awaiting approval',
  approved: 'Approved',
  done: 'Done',
  failed: 'Failed',
  rejected: 'Rejected',
};

export function ToolStepItem({ step }: { step: ToolStep }) {
  return (
    <li
      className={`step step-${step.state}`}
      style={{ marginInlineStart: `${Math.min(step.depth, 4) * 1.25}rem` }}
    >
      <span className="step-dot" aria-hidden="true" />
      <span className="step-summary">{shown(step.summary)}</span>
      <span className={`badge badge-${step.state}`}>{LABEL[step.state]}</span>
      {step.durationMs !== undefined && step.state !== 'rejected' && (
        <span className="muted step-duration">{formatDuration(step.durationMs)}</span>
      )}
      {/* While it waits, the approval card shows what the call will do. */}
      {step.preview && step.preview !== step.summary && step.state !== 'awaiting_approval' && (
        <span className="step-preview">{shown(step.preview)}</span>
      )}
      {step.allowedBy && <span className="step-decision">{step.allowedBy}</span>}
      {step.decision && (
        <span className="step-decision">{decisionDetail(step.decision, step.state)}</span>
      )}
      {step.error && step.state === 'failed' && (
        <span className="step-error">{shown(step.error)}</span>
      )}
    </li>
  );
}
