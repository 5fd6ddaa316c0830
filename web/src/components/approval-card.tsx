import { useEffect, useId, useState } from 'react';
import type { ApprovalDecision, ApprovalView } from '../api/wire-types.js';
import { feedbackKey, readDraft, writeDraft } from '../state/drafts.js';
import { escapeInvisible as shown } from '../../../src/util/visible-text.js';

interface Props {
  approval: ApprovalView;
  /** This card's decision is on its way, until the server has stored it. */
  busy: boolean;
  /** Another run is streaming: decide after it. */
  disabled: boolean;
  /** The decision did not reach the server; the card stays, feedback included, to try again. */
  error?: string;
  onDecide(decision: ApprovalDecision, feedback: string): void;
}

/**
 * What will be done (the tool's preview), why it waits (the policy's reason),
 * and the three answers; feedback goes to the model with a rejection. The
 * server sends the preview made visible; the card guards every text again, so
 * a bidi override or a control character is shown (`\u202e`), never applied.
 */
export function ApprovalCard({ approval, busy, disabled, error, onDecide }: Props) {
  // Kept as it is typed, so a reload before deciding does not lose it.
  const key = feedbackKey(approval.approvalId);
  const [feedback, setFeedback] = useState(() => readDraft(window.localStorage, key));
  const id = useId();
  const offers = (d: ApprovalDecision) => approval.decisions.includes(d);
  const decide = (d: ApprovalDecision) => onDecide(d, feedback);
  // Opened from a link to this approval (the run's agent tree): bring the card into view.
  const anchor = `approval-${approval.approvalId}`;
  useEffect(() => {
    if (window.location.hash === `#${anchor}`) document.getElementById(anchor)?.scrollIntoView();
  }, [anchor]);
  return (
    <article
      id={anchor}
      className="card approval-card"
      aria-labelledby={`${id}-title`}
      aria-busy={busy}
    >
      <h2 id={`${id}-title`} className="approval-title">
        Approval needed: <code>{shown(approval.tool)}</code>
      </h2>
      {approval.path && (
        // A subagent's call: who asks, from the run's agent down.
        <p className="approval-path">
          Asked by <code>{shown(approval.path.join(' › '))}</code>
        </p>
      )}
      <h3 className="approval-label">What will be done</h3>
      <pre className="approval-preview">{shown(approval.preview)}</pre>
      <h3 className="approval-label">Why you are asked</h3>
      <p className="approval-reason">{shown(approval.reason)}</p>
      <label htmlFor={`${id}-feedback`} className="approval-label">
        Feedback for the agent (optional)
      </label>
      <textarea
        id={`${id}-feedback`}
        rows={2}
        value={feedback}
        onChange={(e) => {
          setFeedback(e.target.value);
          writeDraft(window.localStorage, key, e.target.value);
        }}
        placeholder="e.g. Send it to Carol instead"
        disabled={busy}
      />
      <div className="approval-actions" role="group" aria-label="Decision">
        {offers('reject') && (
          <button
            type="button"
            className="danger"
            disabled={disabled}
            onClick={() => decide('reject')}
          >
            Reject
          </button>
        )}
        {offers('approve_once') && (
          <button
            type="button"
            className="primary"
            disabled={disabled}
            onClick={() => decide('approve_once')}
          >
            Approve once
          </button>
        )}
        {offers('approve_and_always_allow_recipient') && (
          <button
            type="button"
            disabled={disabled}
            onClick={() => decide('approve_and_always_allow_recipient')}
          >
            Always allow for this recipient
          </button>
        )}
      </div>
      {busy && (
        <p className="muted" role="status">
          Sending your decision…
        </p>
      )}
      {error && !busy && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
