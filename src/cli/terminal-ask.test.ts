import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { terminalAsk } from './terminal-ask.js';

describe('terminalAsk', () => {
  it('answers a question asked the moment the previous one was answered (chat /clear, /help, /agents)', async () => {
    const input = new PassThrough();
    const ask = terminalAsk(input, new PassThrough());
    const signal = new AbortController().signal;
    const first = ask('you> ', signal);
    input.write('/clear\n');
    expect(await first).toBe('/clear');
    // Asked again with no other work in between, as the chat loop does for its commands.
    const second = ask('you> ', signal);
    // The person types later: by then the input must still be read (a paused stdin ends the process).
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(false);
    input.write('hello\n');
    expect(await second).toBe('hello');
  });

  it('rejects when the input ends at the prompt', async () => {
    const input = new PassThrough();
    const answer = terminalAsk(input, new PassThrough())('you> ', new AbortController().signal);
    input.end();
    await expect(answer).rejects.toThrow('input closed');
  });
});
