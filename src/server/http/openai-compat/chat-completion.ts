import {
  chatCompletion,
  chatUsage,
  completionHead,
  type ChatCompletion,
} from './completion-shapes.js';
import type { FastifyReply } from 'fastify';
import type { ChatRun } from './chat-run.js';
import { failedRun } from './failed-run.js';
import { settledReply } from './run-outcome.js';
import { runTally } from './run-tally.js';
import { THREAD_HEADER } from './thread-header.js';

/**
 * Runs to the end or to a pause, then answers one `chat.completion`; its
 * content is the run's answer. A failed run is an error response instead.
 */
export async function completeChat(run: ChatRun): Promise<ChatCompletion | FastifyReply> {
  const createdMs = Date.now();
  // Events only for usage: the answer is the run's summary, not the text of every turn.
  const tally = runTally();
  const response = await run.start({ signal: run.signal, onEvent: tally.onEvent });
  void run.reply.header(THREAD_HEADER, response.threadId);
  const outcome = settledReply(response, run.baseUrl, run.ignored);
  if (response.status === 'failed' || response.status === 'cancelled') {
    const failed = failedRun(response, outcome.cadre);
    return run.reply.status(failed.status).headers(failed.headers).send(failed.body);
  }
  return chatCompletion(
    completionHead(response.runId, run.model, createdMs),
    outcome.content,
    chatUsage(tally.usage(), tally.cachedInputTokens()),
    outcome.cadre,
  );
}
