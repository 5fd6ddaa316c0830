import type { Message } from '../model/types.js';
import { errorAt, type IssuePath, type PendingIssue } from './issues.js';
import type { RawInitialMessage, RawPromptConfig } from './raw-definition-schema.js';
import { pickSpelling } from './spelling.js';
import type { PromptConfig } from './types.js';

function toMessage(
  raw: RawInitialMessage,
  at: IssuePath,
  issues: PendingIssue[],
): Message | undefined {
  if (raw.content !== undefined && raw.parts !== undefined) {
    issues.push(errorAt(at, 'a message has either "content" or "parts", not both'));
    return undefined;
  }
  if (raw.content === undefined && raw.parts === undefined) {
    issues.push(errorAt(at, 'a message needs "content" (a string) or "parts" ([{text}])'));
    return undefined;
  }
  const texts =
    raw.content !== undefined ? [raw.content] : (raw.parts ?? []).map((part) => part.text);
  return { role: raw.role, parts: texts.map((text) => ({ kind: 'text' as const, text })) };
}

export function normalizePrompt(
  raw: RawPromptConfig | undefined,
  at: IssuePath,
  // Unused: placeholders are checked against the inputs once the dialect is known.
  _inputNames: readonly string[],
  issues: PendingIssue[],
): PromptConfig {
  const out: PromptConfig = {};
  if (!raw) return out;
  if (raw.query !== undefined) out.query = raw.query;
  const system = pickSpelling<string>(raw, ['systemPrompt', 'system_prompt'], at, issues);
  if (system) out.systemPrompt = system.value;
  const seed = pickSpelling<RawInitialMessage[]>(
    raw,
    ['initialMessages', 'initial_messages'],
    at,
    issues,
  );
  if (seed) {
    const messages = seed.value.map((message, index) =>
      toMessage(message, [...at, seed.key, index], issues),
    );
    out.initialMessages = messages.filter((message): message is Message => message !== undefined);
  }
  return out;
}
