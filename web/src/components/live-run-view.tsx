import type { LiveRun } from '../state/use-chat.js';
import { RunSteps } from './run-steps.js';

const STATUS_TEXT: Record<string, string> = {
  queued: 'Queued…',
  planning: 'Thinking…',
  executing: 'Working…',
  running: 'Working…',
  awaiting_confirmation: 'Waiting for your approval.',
  completed: 'Done.',
  failed: 'The run failed.',
  cancelled: 'Cancelled.',
};

/** The run being streamed: the prompt at once, then steps and text as they arrive. */
export function LiveRunView({ live, agentName }: { live: LiveRun; agentName?: string }) {
  const { trace } = live;
  // A finished run without text (a refused approval, an error) leaves only the notice.
  const showReply = !live.done || trace.text !== '' || trace.steps.length > 0;
  const status = live.reattached
    ? 'Still running…'
    : trace.status
      ? (STATUS_TEXT[trace.status] ?? trace.status)
      : 'Starting…';
  return (
    <>
      {live.prompt && (
        <li className="message message-user">
          <span className="message-role">You</span>
          <div className="message-text">{live.prompt}</div>
        </li>
      )}
      {showReply && (
        <li className="message message-assistant live" aria-busy={!live.done}>
          <span className="message-role">{agentName ?? 'Assistant'}</span>
          <p className="live-status muted" role="status">
            {live.done ? '' : status}
          </p>
          <RunSteps trace={trace} />
          {trace.text && (
            <div className="message-text" data-testid="live-text">
              {trace.text}
              {!live.done && <span className="cursor" aria-hidden="true" />}
            </div>
          )}
        </li>
      )}
    </>
  );
}
