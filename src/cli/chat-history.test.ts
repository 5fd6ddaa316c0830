import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatHistoryFile, loadChatHistory } from './chat-history.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cadre-chat-history-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('chat history', () => {
  it('lives in the state folder: XDG_STATE_HOME, else ~/.local/state', () => {
    expect(chatHistoryFile({ XDG_STATE_HOME: '/s', HOME: '/h' }, '/p')).toBe(
      '/s/cadre/chat-history',
    );
    expect(chatHistoryFile({ HOME: '/h' }, '/p')).toBe('/h/.local/state/cadre/chat-history');
    expect(chatHistoryFile({}, '/p')).toBeUndefined();
  });

  it('is never written inside the project, even when HOME or XDG_STATE_HOME points there', () => {
    expect(chatHistoryFile({ HOME: '/p' }, '/p')).toBeUndefined();
    expect(chatHistoryFile({ XDG_STATE_HOME: '/p/.state' }, '/p')).toBeUndefined();
  });

  it('saves lines as typed (owner-only) and loads them newest first', async () => {
    const file = join(root, 'state/cadre/chat-history');
    const first = await loadChatHistory(file);
    expect(first.lines).toEqual([]);
    await first.add('one');
    await first.add('  ');
    await first.add('two');
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\n');
    expect((await stat(file)).mode & 0o077).toBe(0);
    expect((await loadChatHistory(file)).lines).toEqual(['two', 'one']);
  });
});
