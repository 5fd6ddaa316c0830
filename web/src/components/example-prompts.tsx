import type { AgentView } from '../api/wire-types.js';
import { agentLabel } from '../state/agent-choice.js';

interface Props {
  agent?: AgentView;
  /** Fills the composer; nothing is sent until the person says so. */
  onPick(prompt: string): void;
  /** The composer's box, focused after a pick so Enter sends it. */
  composerId?: string;
}

/** A new thread's empty state: what the agent does, and a few prompts to start from. */
export function ExamplePrompts({ agent, onPick, composerId = 'prompt' }: Props) {
  const pick = (example: string) => {
    onPick(example);
    document.getElementById(composerId)?.focus();
  };
  // An agent with structured inputs starts from its form, not from a message.
  const form = (agent?.inputs?.length ?? 0) > 0;
  const examples = form ? [] : (agent?.examples ?? []);
  return (
    <section className="empty-state" aria-labelledby="empty-state-title">
      <h2 id="empty-state-title">
        {agent ? `Start a conversation with ${agentLabel(agent)}` : 'Start a conversation'}
      </h2>
      {agent?.description && <p className="muted">{agent.description}</p>}
      {form && <p className="examples-hint">Fill in its inputs below to start a run.</p>}
      {examples.length > 0 && (
        <>
          <p className="examples-hint">Try an example (it fills the message box):</p>
          <ul className="examples" aria-label="Example prompts">
            {examples.map((example) => (
              <li key={example}>
                <button type="button" className="example" onClick={() => pick(example)}>
                  {example}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
