import type { Navigate } from '../state/use-route.js';

/** A thread address the server does not know for this user: missing, or someone else's. */
export function ThreadNotFound({ title, navigate }: { title: string; navigate: Navigate }) {
  return (
    <section className="chat" aria-labelledby="chat-title">
      <div className="chat-head">
        <h1 id="chat-title">{title}</h1>
      </div>
      <div role="alert" className="notice notice-error">
        <span className="notice-text">
          There is no such thread for you: it may have been mistyped, or it belongs to someone else.
        </span>
        <a
          href="/"
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            navigate('/');
          }}
        >
          Start a new thread
        </a>
      </div>
    </section>
  );
}
