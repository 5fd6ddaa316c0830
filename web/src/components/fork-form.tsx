import { useState, type FormEvent } from 'react';
import type { TrajectoryStepView } from '../api/trajectory-api.js';

interface Props {
  step: TrajectoryStepView;
  /** The agent whose steps can be forked (subagents' cannot). */
  agent: string;
  prompt: string;
  onPromptChange(prompt: string): void;
  /** Starts the fork; rejects with the reason when the server refuses it. */
  onFork(step: number, prompt: string): Promise<void>;
}

/** Go on from this step with the prompt edited: a new run in a new thread. */
export function ForkForm({ step, agent, prompt, onPromptChange, onFork }: Props) {
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const number = step.index + 1;
  if (!step.forkable)
    return (
      <p className="muted fork-note">
        This step is a subagent&apos;s; a fork starts from a step of {agent}.
      </p>
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = prompt.trim();
    if (!text || state.busy) return;
    setState({ busy: true });
    onFork(step.index, text).catch((error: unknown) =>
      setState({ busy: false, error: error instanceof Error ? error.message : 'The fork failed.' }),
    );
  };
  return (
    <form className="fork-form card" onSubmit={submit} aria-labelledby="fork-title">
      <h2 id="fork-title">Fork from step {number}</h2>
      <p className="muted" id="fork-help">
        {number === 1
          ? 'A new run of the edited prompt, in a new thread.'
          : `Steps 1–${number - 1} are kept as recorded: no model call and no tool runs again. The model answers step ${number} afresh, with the edited prompt, in a new thread.`}
      </p>
      <label htmlFor="fork-prompt">Prompt</label>
      <textarea
        id="fork-prompt"
        rows={3}
        value={prompt}
        onChange={(e) => onPromptChange(e.target.value)}
        aria-describedby="fork-help"
      />
      {state.error && (
        <p className="notice notice-error" role="alert">
          {state.error}
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={state.busy || !prompt.trim()}>
          {state.busy ? 'Forking…' : `Fork from step ${number}`}
        </button>
      </div>
    </form>
  );
}
