import { describe, expect, it } from 'vitest';
import { draftKey, readDraft, writeDraft } from './drafts.js';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('drafts: unsent messages kept per thread', () => {
  it('keeps one draft per thread, and one for a thread not created yet', () => {
    const storage = memoryStorage();
    writeDraft(storage, draftKey('t1'), 'For t1');
    writeDraft(storage, draftKey(), 'For a new thread');
    expect(readDraft(storage, draftKey('t1'))).toBe('For t1');
    expect(readDraft(storage, draftKey())).toBe('For a new thread');
    expect(readDraft(storage, draftKey('t2'))).toBe('');
  });

  it('removes the entry when the draft is emptied', () => {
    const storage = memoryStorage();
    writeDraft(storage, draftKey('t1'), 'x');
    writeDraft(storage, draftKey('t1'), '');
    expect(storage.items.size).toBe(0);
  });

  it('works on without storage', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(() => writeDraft(broken, draftKey(), 'x')).not.toThrow();
    expect(readDraft(broken, draftKey())).toBe('');
  });
});
