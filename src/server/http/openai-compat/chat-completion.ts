import {
  chatCompletion,
  chatUsage,
  completionHead,
  type ChatCompletion,
} from './completion-shapes.js';
import type { FastifyReply } from 'fastify';
import type { ChatRun } from './chat-run.js';
import { failedRun } from './failed-run.js';
import { answerText, settledReply } from './run-outcome.js';
import { runTally } from './run-tally.js';
import { THREAD_HEADER } from './thread-header.js';

/**
 * Runs to the end or to a pause, then answers one `chat.completion`; its
 * content is the text a stream of the run sends. A failed run is an error response instead.
 */
export async function completeChat(run: ChatRun): Promise<ChatCompletion | FastifyReply> {
  const createdMs = Date.now();
  // The text of every turn, as a stream of the same run would send it, and usage.
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
    answerText(response, outcome, tally.streamed()),
    chatUsage(tally.usage(), tally.cachedInputTokens()),
    outcome.cadre,
  );
}
