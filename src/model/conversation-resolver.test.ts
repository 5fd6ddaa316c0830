import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationResolver } from './conversation-resolver.js';

async function scriptDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cadre-conversations-'));
  await writeFile(join(dir, 'turns.json'), JSON.stringify([{ parts: [{ text: 'hi' }] }]));
  return dir;
}

describe('conversationResolver (scripted model responses)', () => {
  it('gives each conversation its own scripted client, and the same one within it', async () => {
    const resolve = conversationResolver({}, await scriptDir());
    const a = resolve('scripted:turns.json', 'thread-a').client;
    expect(resolve('scripted:turns.json', 'thread-a').client).toBe(a);
    expect(resolve('scripted:turns.json', 'thread-b').client).not.toBe(a);
  });

  it('shares provider clients across conversations', () => {
    const resolve = conversationResolver({ OPENAI_API_KEY: 'k' }, tmpdir());
    expect(resolve('openai:gpt-4.1', 'thread-a').client).toBe(
      resolve('openai:gpt-4.1', 'thread-b').client,
    );
  });

  it('forgets the least recently used conversation past its limit', async () => {
    const resolve = conversationResolver({}, await scriptDir(), 2);
    const a = resolve('scripted:turns.json', 'a').client;
    const b = resolve('scripted:turns.json', 'b').client;
    expect(resolve('scripted:turns.json', 'a').client).toBe(a); // a is now the most recent
    resolve('scripted:turns.json', 'c');
    expect(resolve('scripted:turns.json', 'a').client).toBe(a);
    expect(resolve('scripted:turns.json', 'b').client).not.toBe(b);
  });
});
