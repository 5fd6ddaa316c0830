import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeminiClient } from '../../model/gemini-client.js';
import { SUMMARY_INSTRUCTION } from '../../runtime/compaction/compact-conversation.js';
import { openStore } from '../../store/open-store.js';
import { startFakeGemini } from '../../testing/fake-gemini-server.js';
import { fakeInputTokens, type CapturedRequest, type FakeTurn } from '../../testing/fake-turn.js';
import { createRunService } from './create-run-service.js';

const WINDOW = 6_000;
const FACT = 'My locker number is 4471.';
const QUESTION = 'What is my locker number?';
/** About 420 tokens a message, as the provider counts them. */
const FILLER = ' Some talk about the weather, the trains and lunch plans.'.repeat(22);

const texts = (request: CapturedRequest): string[] => {
  const body = request.body as { contents?: Array<{ parts?: Array<{ text?: string }> }> };
  return (body.contents ?? []).flatMap((c) => (c.parts ?? []).flatMap((p) => p.text ?? []));
};
const isSummary = (request: CapturedRequest): boolean =>
  JSON.stringify(request.body).includes(SUMMARY_INSTRUCTION.slice(0, 40));

/**
 * The scripted model: the summariser keeps the facts it is shown (an earlier
 * note's included); the judge answers only when the fact reached its request.
 */
function script(request: CapturedRequest): FakeTurn {
  const all = texts(request).join('\n');
  if (isSummary(request)) {
    const facts = [...new Set(all.match(/My locker number is \d+\./g) ?? [])];
    return { parts: [{ text: facts.length > 0 ? facts.join('\n') : 'Small talk.' }] };
  }
  if (texts(request).at(-1)?.includes(QUESTION))
    return {
      parts: [{ text: all.includes('4471') ? 'Your locker is 4471.' : 'I do not know.' }],
    };
  return { parts: [{ text: 'Noted.' }] };
}

describe('a long server thread against a fake Gemini that refuses oversized requests (scripted model)', () => {
  it('a 300-message thread never sends a request over the window and still knows message 3', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-thread-window-'));
    await mkdir(join(dir, 'agents'));
    await mkdir(join(dir, '.cadre'));
    await writeFile(
      join(dir, 'agents', 'chat.yaml'),
      'name: chat\ndescription: Chats\npromptConfig:\n  systemPrompt: You chat.\n',
    );
    await writeFile(
      join(dir, '.cadre', 'models.json'),
      JSON.stringify({ 'gemini-tiny': { contextWindow: WINDOW } }),
    );
    const fake = await startFakeGemini({ turns: script, maxInputTokens: WINDOW });
    const store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
    const service = await createRunService({
      store,
      cwd: dir,
      env: { HOME: dir },
      model: 'gemini-tiny',
      modelClient: new GeminiClient({ apiKey: 'k', baseUrl: fake.baseUrl }),
    });
    try {
      const userId = (await store.auth.ensureUser('ann')).id;
      const ask = (prompt: string, threadId?: string) =>
        service.run({ userId, prompt, agent: 'chat', ...(threadId ? { threadId } : {}) });
      const first = await ask(`Message 1.${FILLER}`);
      const { threadId } = first;
      for (let run = 2; run <= 149; run++) {
        const prompt = run === 2 ? `${FACT}${FILLER}` : `Message ${run * 2 - 1}.${FILLER}`;
        const answered = await ask(prompt, threadId);
        expect(answered.status).toBe('completed');
      }
      const answer = await ask(QUESTION, threadId);
      expect(await store.threads.listMessages(threadId, { limit: 500 })).toHaveLength(300);
      expect(answer.summary).toBe('Your locker is 4471.');

      const sizes = fake.requests.map((r) => fakeInputTokens(r.body));
      const biggest = Math.max(...sizes);
      const summaries = fake.requests.filter(isSummary).length;
      console.log(
        `thread of 300 messages: largest request ${biggest} tokens (provider's count) against a ${WINDOW}-token window; ` +
          `${fake.requests.length} requests, ${summaries} summary calls, none refused`,
      );
      expect(biggest).toBeLessThanOrEqual(WINDOW);
      // Folded every few runs by size, not only by message count.
      expect(summaries).toBeGreaterThan(10);
      expect(summaries).toBeLessThan(75);
    } finally {
      await service.close();
      await store.close();
      await fake.close();
    }
  }, 120_000);
});
