import { CancelledError } from '../../../errors/cadre-error.js';
import type { CadreEvent } from '../../../events/types.js';
import { mapError } from '../error-mapping.js';
import { threadOf } from '../stream-lines.js';
import type { ChatRun } from './chat-run.js';
import {
  chatChunk,
  chatUsage,
  completionHead,
  finishReason,
  type CadreIds,
  type CompletionHead,
} from './completion-shapes.js';
import { failedRun } from './failed-run.js';
import { openAiErrorBody } from './openai-errors.js';
import { runOutcome, streamTail } from './run-outcome.js';
import { runTally } from './run-tally.js';
import { sseWriter } from './sse-writer.js';
import { THREAD_HEADER } from './thread-header.js';

/**
 * Streams a run as `chat.completion.chunk` events: the role (with the run's
 * ids) once the run exists, the top-level agent's text as it comes, what
 * the text did not say (a pause, a failure, a structured answer), the
 * finish with the `cadre` outcome, usage if asked, then `[DONE]`. A failure
 * before the first chunk is rethrown for its status code; after it, it is
 * an error event, which OpenAI's SDKs raise.
 */
export async function streamChat(run: ChatRun): Promise<void> {
  const createdMs = Date.now();
  const overflow = new AbortController();
  const sse = sseWriter(run.reply, () =>
    overflow.abort(new CancelledError('The client stopped reading the stream.')),
  );
  // OpenAI sends `usage: null` on every chunk but the last when usage was asked for.
  const pending = run.includeUsage ? { usage: null } : {};
  let head: CompletionHead | undefined;
  const begin = (ids: CadreIds): CompletionHead => {
    if (head) return head;
    // Headers leave with the first chunk: the thread a next request continues.
    if (ids.threadId) void run.reply.header(THREAD_HEADER, ids.threadId);
    head = completionHead(ids.runId, run.model, createdMs);
    const cadre = { runId: ids.runId, threadId: ids.threadId };
    sse.data(chatChunk(head, { role: 'assistant', content: '' }, null, { ...pending, cadre }));
    return head;
  };
  const tally = runTally((content) => {
    if (head) sse.data(chatChunk(head, { content }, null, pending));
  });
  const onEvent = (event: CadreEvent): void => {
    begin({ runId: event.runId, threadId: threadOf(event) ?? '' });
    tally.onEvent(event);
  };
  try {
    const response = await run.start({
      signal: AbortSignal.any([run.signal, overflow.signal]),
      onStarted: begin,
      onEvent,
    });
    const outcome = runOutcome(response, run.baseUrl);
    if (response.status === 'failed' || response.status === 'cancelled') {
      // An error event, which OpenAI's SDKs raise; before any chunk, an error status.
      const failed = failedRun(response, outcome.cadre);
      if (!sse.opened) {
        void run.reply.header(THREAD_HEADER, response.threadId);
        return void (await run.reply.status(failed.status).send(failed.body));
      }
      sse.data(failed.body);
      return sse.end();
    }
    const last = begin({ runId: response.runId, threadId: response.threadId });
    const tail = streamTail(response, outcome, tally.streamed());
    if (tail) sse.data(chatChunk(last, { content: tail }, null, pending));
    sse.data(
      chatChunk(last, {}, finishReason(outcome.cadre), { ...pending, cadre: outcome.cadre }),
    );
    if (run.includeUsage)
      sse.data(
        chatChunk(last, undefined, null, {
          usage: chatUsage(tally.usage(), tally.cachedInputTokens()),
        }),
      );
    sse.done();
  } catch (error) {
    if (!sse.opened) throw error;
    const mapped = mapError(error);
    if (mapped.serverFault) run.reply.log.error({ err: error }, 'streamed chat completion failed');
    // A client that left reads nothing; the write is dropped.
    sse.data(openAiErrorBody(mapped));
    sse.end();
  }
}
