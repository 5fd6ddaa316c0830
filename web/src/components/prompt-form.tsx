import type { FormEvent, KeyboardEvent, ReactNode } from 'react';

interface Props {
  /** The draft, kept by the caller until the server has taken it. */
  value: string;
  onChange(value: string): void;
  /** A run is streaming: the next message waits for it (typing goes on). */
  busy: boolean;
  /** This message is on its way: it stays as it is until the server takes it. */
  sending: boolean;
  onSend(prompt: string): void;
  /** Shown right above the box, where the person is looking. */
  notice?: ReactNode;
}

/** Enter sends, Shift+Enter starts a new line. */
export function PromptForm({ value, onChange, busy, sending, onSend, notice }: Props) {
  const send = () => {
    const text = value.trim();
    if (!text || busy || sending) return;
    onSend(text);
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
    <div className="composer">
      {notice}
      <form className="prompt-form" onSubmit={onSubmit}>
        <label htmlFor="prompt" className="visually-hidden">
          Your message
        </label>
        <textarea
          id="prompt"
          rows={2}
          value={value}
          readOnly={sending}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Ask the agent… (Enter to send, Shift+Enter for a new line)"
          aria-describedby="prompt-help"
        />
        <span id="prompt-help" className="visually-hidden">
          Press Enter to send, Shift+Enter for a new line.
        </span>
        <button type="submit" className="primary" disabled={busy || sending || !value.trim()}>
          {sending ? 'Sending…' : busy ? 'Running…' : 'Send'}
        </button>
      </form>
    </div>
  );
}
