import type { ThreadMessage } from '../api/wire-types.js';
import type { RunTrace } from '../state/run-trace.js';
import { runPath, type Navigate } from '../state/use-route.js';
import { RunSteps } from './run-steps.js';

interface Props {
  message: ThreadMessage;
  trace?: RunTrace;
  showRunLink: boolean;
  navigate: Navigate;
}

export function MessageItem({ message, trace, showRunLink, navigate }: Props) {
  const who =
    message.role === 'user' ? 'You' : message.role === 'assistant' ? 'Assistant' : 'System';
  const runId = message.runId;
  return (
    <li className={`message message-${message.role}`}>
      <span className="message-role">{who}</span>
      {trace && <RunSteps trace={trace} />}
      <div className="message-text">{message.content}</div>
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
