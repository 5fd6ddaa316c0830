import type { DecisionView, ThreadMessage } from '../api/wire-types.js';
import { decisionText } from '../state/decision-text.js';
import type { RunTrace } from '../state/run-trace.js';
import { runPath, type Navigate } from '../state/use-route.js';
import { RunSteps } from './run-steps.js';

interface Props {
  message: ThreadMessage;
  trace?: RunTrace;
  /** What was decided on the approvals this message asked for. */
  decisions?: DecisionView[];
  showRunLink: boolean;
  navigate: Navigate;
}

export function MessageItem({ message, trace, decisions, showRunLink, navigate }: Props) {
  const who =
    message.role === 'user' ? 'You' : message.role === 'assistant' ? 'Assistant' : 'System';
  const runId = message.runId;
  return (
    <li className={`message message-${message.role}`}>
      <span className="message-role">{who}</span>
      {trace && <RunSteps trace={trace} />}
      <div className="message-text">{message.content}</div>
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
