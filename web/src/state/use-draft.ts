import { useCallback, useState } from 'react';
import { draftKey, readDraft, writeDraft } from './drafts.js';

export interface Draft {
  text: string;
  setText(text: string): void;
  /** Forgets the draft of the thread shown now, even after the page moved to another thread. */
  clearer(): () => void;
}

/**
 * The composer's text for one thread, kept in localStorage as it is typed,
 * so a message the server has not accepted survives a failure and a reload.
 */
export function useDraft(threadId?: string): Draft {
  const key = draftKey(threadId);
  const [edit, setEdit] = useState<{ key: string; text: string }>();
  const text = edit?.key === key ? edit.text : readDraft(window.localStorage, key);
  const setText = useCallback(
    (next: string) => {
      writeDraft(window.localStorage, key, next);
      setEdit({ key, text: next });
    },
    [key],
  );
  const clearer = useCallback(
    () => () => {
      writeDraft(window.localStorage, key, '');
      setEdit((current) =>
        current === undefined || current.key === key ? { key, text: '' } : current,
      );
    },
    [key],
  );
  return { text, setText, clearer };
}
