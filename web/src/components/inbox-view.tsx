import { useState, type MouseEvent } from 'react';
import type { InboxApi } from '../api/inbox-api.js';
import type { ApprovalDecision, ApprovalView } from '../api/wire-types.js';
import { failureText } from '../state/failure-text.js';
import { threadPath, type Navigate } from '../state/use-route.js';
import type { Inbox } from '../state/use-inbox.js';
import { ApprovalCard } from './approval-card.js';
import { escapeInvisible as visible } from '../../../src/util/visible-text.js';

/** `office › team › mailer › gmail_send: ` for a subagent's call; nothing for the run's own. */
const askedBy = (approval: ApprovalView): string =>
  approval.path ? `${visible(approval.path.join(' › '))}: ` : '';

interface Props {
  api: InboxApi;
  inbox: Inbox;
  navigate: Navigate;
  /** Only this run's approvals (the run page a /v1 or MCP answer links to). */
  runId?: string;
  /** A decision was stored: threads may have moved. */
  onDecided(): void;
}

const DONE: Record<ApprovalDecision, string> = {
  approve_once: 'Approved',
  approve_and_always_allow_recipient: 'Approved, and always allowed for this recipient',
  reject: 'Rejected',
};

/** The approvals waiting for the signed-in person, each with its answers and its thread. */
export function InboxView({ api, inbox, navigate, runId, onDecided }: Props) {
  const [deciding, setDeciding] = useState<string>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<{ text: string; threadId: string }>();
  const shown = runId ? inbox.approvals.filter((a) => a.runId === runId) : inbox.approvals;
  // On a run's page the section appears only while the run waits.
  if (runId && shown.length === 0 && !done) return null;

  const decide = async (approval: ApprovalView, decision: ApprovalDecision, feedback: string) => {
    setDeciding(approval.approvalId);
    try {
      await api.decide({
        approvalId: approval.approvalId,
        decision,
        ...(feedback.trim() ? { feedback: feedback.trim() } : {}),
      });
      setDone({
        text: `${DONE[decision]}: ${askedBy(approval)}${approval.preview}. The run goes on in its thread.`,
        threadId: approval.threadId,
      });
      onDecided();
    } catch (e) {
      setErrors((all) => ({ ...all, [approval.approvalId]: failureText(e, 'decide').text }));
    } finally {
      setDeciding(undefined);
      inbox.refresh();
    }
  };

  const openThread = (threadId: string) => (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(threadPath(threadId));
  };

  return (
    <section className="inbox" aria-labelledby="inbox-title">
      <h1 id="inbox-title">
        {runId ? 'This run waits for your approval' : 'Approvals waiting for you'}
      </h1>
      {done && (
        <p className="notice" role="status">
          {done.text}{' '}
          <a href={threadPath(done.threadId)} onClick={openThread(done.threadId)}>
            Open the thread
          </a>
        </p>
      )}
      {inbox.error && (
        <p className="notice notice-error" role="alert">
          {inbox.error}
        </p>
      )}
      {!runId && inbox.loaded && shown.length === 0 && !inbox.error && (
        <p className="muted">Nothing is waiting for you.</p>
      )}
      {!inbox.loaded && <p role="status">Loading…</p>}
      <ul className="inbox-list" aria-label="Pending approvals">
        {shown.map((approval) => (
          <li key={approval.approvalId}>
            <p className="inbox-where muted">
              {approval.path && (
                // A subagent's call: the tree from the run's agent down, as the card and /v1 say it.
                <>
                  <code className="inbox-path">{visible(approval.path.join(' › '))}</code> ·{' '}
                </>
              )}
              Waiting since {new Date(approval.createdAt).toLocaleString()} in{' '}
              <a href={threadPath(approval.threadId)} onClick={openThread(approval.threadId)}>
                its thread
              </a>
            </p>
            <ApprovalCard
              approval={approval}
              busy={deciding === approval.approvalId}
              disabled={deciding !== undefined}
              {...(errors[approval.approvalId] ? { error: errors[approval.approvalId] } : {})}
              onDecide={(decision, feedback) => void decide(approval, decision, feedback)}
            />
          </li>
        ))}
      </ul>
      {inbox.more && (
        <p className="muted">More are waiting: decide these first, and the next ones appear.</p>
      )}
    </section>
  );
}
