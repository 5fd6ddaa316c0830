import { startFakeGemini } from './fake-gemini-server.js';
import type { CapturedRequest, FakeServer, FakeTurn } from './fake-turn.js';

interface GeminiContent {
  role?: string;
  parts?: Array<{ text?: string; functionResponse?: unknown }>;
}

/**
 * A fake Gemini endpoint whose SCRIPTED answer depends only on the
 * conversation, so any process may take any turn of any run: a prompt
 * naming an address (`Mail ann@example.com`) gets a `gmail_send` call to
 * it; once the call has an answer, the reply is `Sent.` (or, for an
 * error answer, the error text). No model judges anything here.
 */
export function startMailerGemini(): Promise<FakeServer> {
  return startFakeGemini({ turns: (request) => mailerTurn(request) });
}

function mailerTurn(request: CapturedRequest): FakeTurn {
  const contents = ((request.body as { contents?: GeminiContent[] })?.contents ?? []).filter(
    (c) => c.parts,
  );
  const last = contents.at(-1);
  const answer = last?.parts?.find((p) => p.functionResponse !== undefined)?.functionResponse;
  if (answer !== undefined) {
    const error = JSON.stringify(answer).match(/"error":"([^"]*)"/)?.[1];
    return { parts: [{ text: error ? `Not sent: ${error}` : 'Sent.' }] };
  }
  const prompt = last?.parts?.map((p) => p.text ?? '').join(' ') ?? '';
  const to = /[\w.+-]+@[\w.-]+/.exec(prompt)?.[0] ?? 'bob@example.com';
  return {
    parts: [
      { functionCall: { name: 'gmail_send', args: { to, subject: 'Hi', body: `Hello ${to}` } } },
    ],
  };
}
