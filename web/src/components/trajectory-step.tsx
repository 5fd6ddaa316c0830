import type { TrajectoryCallView, TrajectoryStepView } from '../api/trajectory-api.js';
import { formatDuration, formatTokens } from '../state/format.js';
import { ThoughtBlock } from './thought-block.js';

/** One model step: what the model thought and said, each tool it called and what came back. */
export function TrajectoryStep({ step }: { step: TrajectoryStepView }) {
  return (
    <article className="trajectory-step card" aria-labelledby="step-title">
      <h2 id="step-title">
        Step {step.index + 1} <span className="muted step-path">{step.path.join(' › ')}</span>
      </h2>
      <p className="muted step-meta">
        {formatDuration(step.durationMs)}
        {step.usage ? ` · ${formatTokens(step.usage.totalTokens)}` : ''}
      </p>
      {step.thought && <ThoughtBlock text={step.thought} />}
      {step.text && (
        <>
          <h3 className="step-label">Model text</h3>
          <div className="message-text step-text">{step.text}</div>
        </>
      )}
      {step.error && (
        <p className="step-error" role="alert">
          The model call failed: {step.error}
        </p>
      )}
      {step.calls.length > 0 && (
        <>
          <h3 className="step-label">Tool calls</h3>
          <ol className="calls">
            {step.calls.map((call) => (
              <CallItem key={call.id} call={call} />
            ))}
          </ol>
        </>
      )}
      {!step.text && !step.error && step.calls.length === 0 && (
        <p className="muted">The model answered with nothing.</p>
      )}
    </article>
  );
}

function CallItem({ call }: { call: TrajectoryCallView }) {
  const { result } = call;
  return (
    <li className={`call call-${result.status}`}>
      <code className="call-tool">{call.tool}</code>
      <pre className="call-args" aria-label={`Arguments of ${call.tool}`}>
        {JSON.stringify(call.args, null, 2)}
      </pre>
      {result.status === 'ok' && (
        <>
          <span className="call-result-label">Result</span>
          <pre className="call-output">{result.output || '(empty)'}</pre>
          {result.truncated && <span className="muted">Cut short for the page.</span>}
        </>
      )}
      {result.status === 'error' && (
        <>
          <span className="call-result-label">Error</span>
          <pre className="call-output call-failed">{result.error}</pre>
        </>
      )}
      {result.status === 'unknown' && <span className="muted">No result was recorded.</span>}
    </li>
  );
}
