import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestPrompt } from '../../model/script-conditions.js';
import { ScriptedModel } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { SUMMARY_INSTRUCTION } from '../../runtime/compaction/compact-conversation.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import type { RunService } from '../run-service-types.js';
import { createRunService } from './create-run-service.js';
import { HISTORY_MESSAGES } from './server-context.js';

const FACT = 'My locker number is 4471.';
const QUESTION = 'What is my locker number?';

const isSummary = (request: ModelRequest): boolean =>
  request.systemInstruction === SUMMARY_INSTRUCTION;

/**
 * The summariser keeps the lines that state a fact (the earlier note's
 * included); the judge answers only when the fact reached its request.
 */
const model = new ScriptedModel(
  (request) => {
    if (isSummary(request)) {
      const text = request.messages
        .flatMap((m) => m.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])))
        .join('\n');
      const facts = text.split('\n').filter((line) => line.includes('locker number is'));
      return {
        parts: [{ text: facts.length > 0 ? [...new Set(facts)].join('\n') : 'Small talk.' }],
        usage: { inputTokens: Math.ceil(text.length / 4), outputTokens: 12 },
      };
    }
    if (latestPrompt(request).includes(QUESTION))
      return {
        parts: [
          {
            text: JSON.stringify(request).includes('4471')
              ? 'Your locker is 4471.'
              : 'I do not know.',
          },
        ],
      };
    return { parts: [{ text: 'Noted.' }], usage: { inputTokens: 100, outputTokens: 2 } };
  },
  { recordRequests: true },
);

let store: Store;
let service: RunService;
let userId: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cadre-thread-summary-'));
  store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  service = await createRunService({ store, cwd: dir, env: { HOME: dir }, modelClient: model });
  userId = (await store.auth.ensureUser('ann')).id;
});
afterAll(async () => {
  await service.close();
  await store.close();
});

describe('a long server thread (scripted judge)', () => {
  it('a thread of 200 messages still knows a fact from message 3', async () => {
    const first = await service.run({ userId, prompt: 'Hello.' });
    const threadId = first.threadId;
    await service.run({ userId, threadId, prompt: FACT });
    for (let i = 3; i <= 100; i++)
      await service.run({ userId, threadId, prompt: `Message ${i * 2 - 1}: nothing much.` });
    expect(await store.threads.listMessages(threadId, { limit: 500 })).toHaveLength(200);

    const answer = await service.run({ userId, threadId, prompt: QUESTION });
    expect(answer.summary).toBe('Your locker is 4471.');

    const chats = model.requests.filter((r) => !isSummary(r));
    const summaries = model.requests.filter(isSummary);
    // Never more than the window and half again, plus the note and the prompt.
    const longest = Math.max(...chats.map((r) => r.messages.length));
    expect(longest).toBeLessThanOrEqual(HISTORY_MESSAGES + HISTORY_MESSAGES / 2 + 2);
    // A summary every few runs, not one per message.
    expect(summaries.length).toBeGreaterThan(5);
    expect(summaries.length).toBeLessThan(25);
    const summaryTokens = summaries.map((r) => JSON.stringify(r.messages).length);
    console.log(
      `thread of 201 messages: ${summaries.length} summaries, longest request ${longest} messages, ` +
        `summary request ${Math.min(...summaryTokens)}–${Math.max(...summaryTokens)} characters`,
    );
  }, 60_000);
});
