import type { DecisionView, ThreadMessage } from '../api/wire-types.js';
import { approvalAsk } from '../state/approval-ask.js';
import { decisionText } from '../state/decision-text.js';
import type { ReplyOutcome } from '../state/run-outcome.js';
import type { RunTrace } from '../state/run-trace.js';
import { runPath, type Navigate } from '../state/use-route.js';
import { RunSteps } from './run-steps.js';

interface Props {
  message: ThreadMessage;
  /** The name on an assistant reply: the agent that wrote it. */
  agentName?: string;
  /** How the message's run ended, on the run's last message: a failure is no answer. */
  outcome?: ReplyOutcome;
  trace?: RunTrace;
  /** What was decided on the approvals this message asked for. */
  decisions?: DecisionView[];
  showRunLink: boolean;
  navigate: Navigate;
}

export function MessageItem(props: Props) {
  const { message, agentName, outcome, trace, decisions, showRunLink, navigate } = props;
  const who =
    message.role === 'user'
      ? 'You'
      : message.role === 'assistant'
        ? (agentName ?? 'Assistant')
        : 'System';
  const runId = message.runId;
  const ask = message.role === 'assistant' ? approvalAsk(message.content) : undefined;
  const ended = outcome === 'failed' || outcome === 'cancelled' ? outcome : undefined;
  return (
    <li className={`message message-${message.role}${ended ? ` message-${ended}` : ''}`}>
      <span className="message-role">{who}</span>
      {trace && <RunSteps trace={trace} />}
      {ask ? (
        <>
          {/* The calls themselves show once: on the card while it waits, then on the step. */}
          {ask.said && <div className="message-text">{ask.said}</div>}
          <p className="muted approval-ask">
            I need your approval for{' '}
            {ask.calls.length === 1 ? 'this call' : `these ${ask.calls.length} calls`}.
          </p>
        </>
      ) : ended === 'failed' ? (
        <div className="notice notice-error run-failure">
          <span className="notice-text">
            <strong>The run failed:</strong> {message.content}
          </span>
        </div>
      ) : ended === 'cancelled' ? (
        <p className="muted run-cancelled">
          <span className="badge badge-cancelled">Cancelled</span> The run was cancelled
          {message.content && message.content !== 'Cancelled.' ? `: ${message.content}` : '.'}
        </p>
      ) : (
        <div className="message-text">{message.content}</div>
      )}
      {decisions && decisions.length > 0 && (
        <ul className="decisions" aria-label="Decisions">
          {decisions.map((d) => (
            <li
              key={d.approvalId}
              className={`decision decision-${d.decision === 'reject' ? 'rejected' : 'approved'}`}
            >
              {decisionText(d)}
            </li>
          ))}
        </ul>
      )}
      {showRunLink && runId && (
        <a
          className="run-link"
          href={runPath(runId)}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            navigate(runPath(runId));
          }}
        >
          Run timeline and audit
        </a>
      )}
    </li>
  );
}
