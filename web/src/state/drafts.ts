/** Where a thread's unsent message is kept; a new thread's draft has its own key. */
export const draftKey = (threadId?: string): string => `cadre.draft.${threadId ?? 'new'}`;

/** Where the feedback typed on an approval card is kept until the decision is stored. */
export const feedbackKey = (approvalId: string): string => `cadre.feedback.${approvalId}`;

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function readDraft(storage: DraftStorage, key: string): string {
  try {
    return storage.getItem(key) ?? '';
  } catch {
    // Storage can be off (private windows, quotas): the draft then lives in the page only.
    return '';
  }
}

/** An empty draft leaves nothing behind. */
export function writeDraft(storage: DraftStorage, key: string, text: string): void {
  try {
    if (text) storage.setItem(key, text);
    else storage.removeItem(key);
  } catch {
    // See readDraft.
  }
}
