import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';

async function project(turns: unknown[]): Promise<{ cwd: string; model: string }> {
  const cwd = await mkdtemp(join(tmpdir(), 'cadre-chat-'));
  await mkdir(join(cwd, 'agents'));
  await writeFile(
    join(cwd, 'agents/lister.md'),
    '---\nname: lister\ndescription: Lists files\ntools: LS\n---\nList files when asked.\n',
  );
  await writeFile(join(cwd, 'turns.json'), JSON.stringify(turns));
  return { cwd, model: `scripted:${join(cwd, 'turns.json')}` };
}

describe('cadre chat (scripted model responses)', () => {
  it('keeps the conversation and forgets it on /clear', async () => {
    const { cwd, model } = await project([
      { parts: [{ text: 'Hi! I am the lister.' }] },
      { parts: [{ text: 'You said hello before.' }] },
      { parts: [{ functionCall: { name: 'ls', args: { path: '.' } } }] },
      { parts: [{ text: 'There is an agents folder.' }] },
    ]);
    const lines = ['hello', 'what did I say?', '/clear', 'list files', '/quit'];
    const run = await runCliCaptured(['chat', 'lister', '--model', model], {
      cwd,
      ask: () => Promise.resolve(lines.shift() ?? '/quit'),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'lister> Hi! I am the lister.\nlister> You said hello before.\nlister> There is an agents folder.\n',
    );
    expect(run.stderr).toContain('Conversation cleared.');
    expect(run.stderr).toMatch(/→ ls \{path: "\."\}/);
  });

  it('Ctrl-C cancels the turn in flight and the chat goes on', async () => {
    const { cwd, model } = await project([
      { parts: [{ text: 'slow' }], delayMs: 5000 },
      { parts: [{ text: 'fast answer' }] },
    ]);
    const lines = ['first', 'second', '/quit'];
    let interrupt: () => void = () => {};
    let interrupted = false;
    const run = await runCliCaptured(['chat', 'lister', '--model', model], {
      cwd,
      ask: (question) => {
        void question;
        return Promise.resolve(lines.shift() ?? '/quit');
      },
      // Ctrl-C once the first turn has started (its progress line is out), not after a timer.
      onStderr: (text) => {
        if (interrupted || !text.includes('•')) return;
        interrupted = true;
        queueMicrotask(() => interrupt());
      },
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => {};
      },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Cancelled.');
    expect(run.stdout).toBe('lister> fast answer\n');
  });
});
