import { startFakeGemini } from '../../src/testing/fake-gemini-server.js';

/** What the parent asks the fake model process to answer with. */
export interface FakeModelConfig {
  /** The answer's length in characters (a short greeting when 0)… */
  answerChars: number;
  /** …for this many requests, a greeting after them (default: every request). */
  longAnswers?: number;
}

export type FakeModelReply = { type: 'ready'; baseUrl: string };

/**
 * A fake Gemini endpoint on loopback, in its own process so the server under
 * load keeps its CPU: the real `@google/genai` client in the server talks to it
 * over HTTP, as it would to Gemini, and every answer is scripted.
 */
async function main(config: FakeModelConfig): Promise<void> {
  const greeting = 'Hello! How can I help today?';
  const long = config.answerChars > 0 ? 'x'.repeat(config.answerChars) : greeting;
  const server = await startFakeGemini({
    turns: (_request, index) => ({
      parts: [{ text: index < (config.longAnswers ?? Infinity) ? long : greeting }],
      usage: { input: 12, output: 8 },
    }),
  });
  // The fake keeps every request for tests to read; a bench has no use for them.
  const trim = setInterval(() => server.requests.splice(0), 1000);
  process.send?.({ type: 'ready', baseUrl: server.baseUrl } satisfies FakeModelReply);
  process.on('message', () => {
    clearInterval(trim);
    void server.close().then(() => process.exit(0));
  });
}

await main(JSON.parse(process.argv[2] ?? '{}') as FakeModelConfig);
