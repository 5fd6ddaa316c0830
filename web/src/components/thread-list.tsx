import type { ReactNode } from 'react';
import type { Thread } from '../api/wire-types.js';

interface Props {
  threads: Thread[];
  activeId?: string;
  /** The list could not be loaded: said quietly, never as an alert here. */
  error?: string;
  onOpen(threadId: string): void;
  onNew(): void;
  /** Approvals waiting, per thread id: a badge on the thread. */
  waiting?: ReadonlyMap<string, number>;
  /** Shown under "New thread" (the approvals inbox and grants links). */
  nav?: ReactNode;
}

export function ThreadList({ threads, activeId, error, onOpen, onNew, waiting, nav }: Props) {
  return (
    <nav className="sidebar" aria-label="Threads">
      <button type="button" className="primary new-thread" onClick={onNew}>
        New thread
      </button>
      {nav}
      <h2 className="sidebar-title" id="threads-title">
        Threads
      </h2>
      {threads.length === 0 && (
        // A failed refresh keeps the list shown; what went wrong is told in the chat, where the person acts.
        <p className="muted">{error ? 'Threads are not loaded yet.' : 'No threads yet.'}</p>
      )}
      <ul className="thread-list" aria-labelledby="threads-title">
        {threads.map((thread) => (
          <li key={thread.id}>
            <a
              href={`/threads/${encodeURIComponent(thread.id)}`}
              aria-current={thread.id === activeId ? 'page' : undefined}
              onClick={(event) => {
                // Plain clicks stay in the page; modified clicks open a new tab as usual.
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                onOpen(thread.id);
              }}
            >
              <span className="thread-title">{thread.title || 'Untitled thread'}</span>
              {(waiting?.get(thread.id) ?? 0) > 0 && (
                <span
                  className="count-badge"
                  aria-label={`${waiting?.get(thread.id)} waiting for you`}
                >
                  {waiting?.get(thread.id)}
                </span>
              )}
              <time className="muted" dateTime={thread.updatedAt}>
                {new Date(thread.updatedAt).toLocaleString()}
              </time>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
