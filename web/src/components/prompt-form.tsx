import { useState, type FormEvent, type KeyboardEvent } from 'react';

interface Props {
  busy: boolean;
  onSend(prompt: string): void;
}

/** Enter sends, Shift+Enter starts a new line. */
export function PromptForm({ busy, onSend }: Props) {
  const [prompt, setPrompt] = useState('');
  const send = () => {
    const text = prompt.trim();
    if (!text || busy) return;
    onSend(text);
    setPrompt('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <form className="prompt-form" onSubmit={onSubmit}>
      <label htmlFor="prompt" className="visually-hidden">
        Your message
      </label>
      <textarea
        id="prompt"
        rows={2}
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Ask the agent… (Enter to send, Shift+Enter for a new line)"
        aria-describedby="prompt-help"
      />
      <span id="prompt-help" className="visually-hidden">
        Press Enter to send, Shift+Enter for a new line.
      </span>
      <button type="submit" className="primary" disabled={busy || !prompt.trim()}>
        {busy ? 'Running…' : 'Send'}
      </button>
    </form>
  );
}
