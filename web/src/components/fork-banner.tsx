import type { ForkNote } from '../state/fork-notes.js';
import { trajectoryPath, type Navigate } from '../state/use-route.js';

/** Says a thread is a fork, from which recording, and shows the steps it kept. */
export function ForkBanner({ note, navigate }: { note: ForkNote; navigate: Navigate }) {
  const from = trajectoryPath(note.fromRunId);
  return (
    <aside className="card fork-banner" aria-label="Fork">
      <p>
        <strong>A fork</strong> of{' '}
        <a
          href={from}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            navigate(from);
          }}
        >
          a recorded run
        </a>
        , answered afresh from step {note.step} with the edited prompt.
      </p>
      {note.kept.length > 0 && (
        <>
          <p className="muted">Kept as recorded (no model call, no tool run again):</p>
          <ol className="kept-steps" aria-label="Kept steps">
            {note.kept.map((step) => (
              <li key={step.number} value={step.number}>
                <span className="kept-agent">{step.agent}</span>
                {step.calls.length > 0 && <span>: called {step.calls.join(', ')}</span>}
                {step.text && <div className="message-text">{step.text}</div>}
              </li>
            ))}
          </ol>
        </>
      )}
    </aside>
  );
}
