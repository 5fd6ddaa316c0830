import { useState } from 'react';
import type {
  TrajectoryApi,
  TrajectoryStepView,
  TrajectoryView as Recording,
} from '../api/trajectory-api.js';
import { forkNote, writeForkNote } from '../state/fork-notes.js';
import { formatDuration } from '../state/format.js';
import { runPath, threadPath, type Navigate } from '../state/use-route.js';
import { useTrajectory } from '../state/use-trajectory.js';
import { ForkForm } from './fork-form.js';
import { TrajectoryStep } from './trajectory-step.js';

interface Props {
  api: TrajectoryApi;
  runId: string;
  navigate: Navigate;
}

/** A recorded run, one model step at a time, with a fork from any step of the run's own agent. */
export function TrajectoryView({ api, runId, navigate }: Props) {
  const { state, reload } = useTrajectory(api, runId);
  return (
    <section className="trajectory" aria-labelledby="trajectory-title">
      <a
        href={runPath(runId)}
        onClick={(event) => {
          event.preventDefault();
          navigate(runPath(runId));
        }}
      >
        ← Back to the run timeline
      </a>
      <h1 id="trajectory-title">Recorded run</h1>
      {state.kind === 'loaded' && <ExportButton api={api} runId={runId} />}
      {state.kind === 'loading' && <p role="status">Loading the recording…</p>}
      {state.kind === 'failed' && (
        <div role="alert" className="notice notice-error">
          <span className="notice-text">{state.message}</span>
          <button type="button" onClick={reload}>
            Retry
          </button>
        </div>
      )}
      {state.kind === 'loaded' && (
        <Stepper
          key={state.trajectory.runId}
          recording={state.trajectory}
          onFork={async (step, prompt) => {
            const { threadId } = await api.fork(runId, { step, prompt });
            // The fork's thread says where it came from and what it kept.
            writeForkNote(
              window.localStorage,
              threadId,
              forkNote(runId, state.trajectory.steps, step),
            );
            navigate(threadPath(threadId));
          }}
        />
      )}
    </section>
  );
}

/**
 * Downloads the run as a trajectory file for `cadre replay FILE` and evals.
 * Fetched with the token (a plain link would carry none), then saved.
 */
function ExportButton({ api, runId }: { api: TrajectoryApi; runId: string }) {
  const [error, setError] = useState<string>();
  const save = async () => {
    try {
      const blob = await api.exportFile(runId);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `run-${runId}.trajectory.json`;
      link.click();
      URL.revokeObjectURL(url);
      setError(undefined);
    } catch (e) {
      setError(`Could not export: ${e instanceof Error ? e.message : 'unknown error'}`);
    }
  };
  return (
    <p className="trajectory-export">
      <button type="button" onClick={() => void save()}>
        Export trajectory
      </button>{' '}
      <span className="muted">
        for <code>cadre replay FILE</code>
      </span>
      {error && (
        <span role="alert" className="notice notice-error">
          {error}
        </span>
      )}
    </p>
  );
}

function Stepper({
  recording,
  onFork,
}: {
  recording: Recording;
  onFork(step: number, prompt: string): Promise<void>;
}) {
  const [current, setCurrent] = useState(0);
  const [prompt, setPrompt] = useState(recording.prompt);
  const { steps } = recording;
  const step = steps[current];
  return (
    <>
      <dl className="run-summary">
        <dt>Agent</dt>
        <dd>{recording.agent}</dd>
        <dt>Model</dt>
        <dd>{recording.model || '–'}</dd>
        <dt>Ended</dt>
        <dd>{recording.terminateReason}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(recording.durationMs)}</dd>
        <dt>Prompt</dt>
        <dd className="message-text">{recording.prompt || '–'}</dd>
      </dl>
      {!step ? (
        <p className="muted">The run made no model call.</p>
      ) : (
        <div className="trajectory-body">
          <nav aria-label="Steps" className="step-index">
            <ol>
              {steps.map((s, i) => (
                <li key={s.index}>
                  <button
                    type="button"
                    className="ghost step-link"
                    aria-current={i === current ? 'step' : undefined}
                    onClick={() => setCurrent(i)}
                  >
                    {s.index + 1}. {stepSummary(s)}
                  </button>
                </li>
              ))}
            </ol>
          </nav>
          <div className="step-pane">
            <div className="step-nav">
              <button
                type="button"
                disabled={current === 0}
                onClick={() => setCurrent(current - 1)}
              >
                ← Previous step
              </button>
              <span role="status" aria-live="polite">
                Step {current + 1} of {steps.length}
              </span>
              <button
                type="button"
                disabled={current === steps.length - 1}
                onClick={() => setCurrent(current + 1)}
              >
                Next step →
              </button>
            </div>
            <TrajectoryStep step={step} />
            <ForkForm
              step={step}
              agent={recording.agent}
              prompt={prompt}
              onPromptChange={setPrompt}
              onFork={onFork}
            />
          </div>
        </div>
      )}
      <h2>Final answer</h2>
      <div className="message-text card">{recording.finalMessage || '–'}</div>
    </>
  );
}

/** A step in a few words: who asked, and what the model did. */
function stepSummary(step: TrajectoryStepView): string {
  const who = step.path.at(-1) ?? '';
  if (step.error) return `${who}: failed`;
  if (step.calls.length > 0) return `${who}: calls ${step.calls.map((c) => c.tool).join(', ')}`;
  return `${who}: answers`;
}
