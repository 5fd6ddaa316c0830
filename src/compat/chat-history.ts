import type { Message } from '../model/types.js';

/**
 * The agent-format `chat_history` string (`user: …` / `assistant: …`
 * lines) as real conversation turns. Lines without a prefix continue the
 * previous turn; text before any prefix counts as the user's.
 */
export function parseChatHistory(history: string | undefined): Message[] {
  if (!history?.trim()) return [];
  const messages: Message[] = [];
  for (const line of history.replace(/\r\n?/g, '\n').split('\n')) {
    const match = /^\s*(user|assistant|human|ai|model)\s*:\s?(.*)$/i.exec(line);
    const role = match
      ? (match[1] ?? '').toLowerCase().match(/^(user|human)$/)
        ? 'user'
        : 'model'
      : undefined;
    const text = match ? (match[2] ?? '') : line;
    const last = messages.at(-1);
    const part = last?.parts[0];
    if ((!role || role === last?.role) && last && part?.kind === 'text') {
      part.text += `\n${text}`;
    } else {
      messages.push({ role: role ?? 'user', parts: [{ kind: 'text', text }] });
    }
  }
  return messages.filter((m) => m.parts.some((p) => p.kind === 'text' && p.text.trim()));
}
