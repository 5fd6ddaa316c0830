import type { ChatRun } from './chat-run.js';
import {
  chatChunk,
  chatUsage,
  completionHead,
  finishReason,
  type CompletionHead,
} from './completion-shapes.js';
import { openAiErrorBody } from './openai-errors.js';
import { sseWriter } from './sse-writer.js';
import { streamOpenAiRun } from './stream-run.js';

/**
 * Streams a run as `chat.completion.chunk` events: the role (with the run's
 * ids) once the run exists, the top-level agent's text as it comes, what
 * the text did not say (a pause, a failure, a structured answer), the
 * finish with the `cadre` outcome, usage if asked, then `[DONE]`.
 */
export function streamChat(run: ChatRun): Promise<void> {
  const createdMs = Date.now();
  // OpenAI sends `usage: null` on every chunk but the last when usage was asked for.
  const pending = run.includeUsage ? { usage: null } : {};
  return streamOpenAiRun<CompletionHead>(run, 'chat completion', (onOverflow) => {
    const sse = sseWriter(run.reply, onOverflow);
    return {
      get opened() {
        return sse.opened;
      },
      open: (ids) => {
        const head = completionHead(ids.runId, run.model, createdMs);
        const cadre = { runId: ids.runId, threadId: ids.threadId };
        sse.data(chatChunk(head, { role: 'assistant', content: '' }, null, { ...pending, cadre }));
        return head;
      },
      text: (head, content) => sse.data(chatChunk(head, { content }, null, pending)),
      finish: (head, { outcome, tail, tally }) => {
        if (tail) sse.data(chatChunk(head, { content: tail }, null, pending));
        sse.data(
          chatChunk(head, {}, finishReason(outcome.cadre), { ...pending, cadre: outcome.cadre }),
        );
        if (run.includeUsage)
          sse.data(
            chatChunk(head, undefined, null, {
              usage: chatUsage(tally.usage(), tally.cachedInputTokens()),
            }),
          );
        sse.done();
      },
      failed: (body) => {
        sse.data(body);
        sse.end();
      },
      error: (mapped) => {
        sse.data(openAiErrorBody(mapped));
        sse.end();
      },
    };
  });
}
