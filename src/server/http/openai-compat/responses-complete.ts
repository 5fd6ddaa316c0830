import type { FastifyReply } from 'fastify';
import type { ChatRun } from './chat-run.js';
import { failedRun } from './failed-run.js';
import {
  outputMessage,
  responseHead,
  responseObject,
  responseUsage,
  settledStatus,
  type ResponseObject,
} from './response-shapes.js';
import { answerText, settledReply } from './run-outcome.js';
import { runTally } from './run-tally.js';
import { THREAD_HEADER } from './thread-header.js';

/** One Responses API request's run: the chat run, and the earlier response it continues. */
export type ResponsesRun = Omit<ChatRun, 'includeUsage'> & { previousRunId?: string };

/**
 * Runs to the end or to a pause, then answers one `response` whose output
 * message is the text a stream of the run sends. A failed run is an error response instead.
 */
export async function completeResponse(run: ResponsesRun): Promise<ResponseObject | FastifyReply> {
  const createdMs = Date.now();
  const tally = runTally();
  const response = await run.start({ signal: run.signal, onEvent: tally.onEvent });
  void run.reply.header(THREAD_HEADER, response.threadId);
  const outcome = settledReply(response, run.baseUrl, run.ignored);
  if (response.status === 'failed' || response.status === 'cancelled') {
    const failed = failedRun(response, outcome.cadre);
    return run.reply.status(failed.status).headers(failed.headers).send(failed.body);
  }
  const head = responseHead(response.runId, run.model, createdMs, run.previousRunId);
  const status = settledStatus(outcome.cadre);
  return responseObject(
    head,
    status,
    [
      outputMessage(
        head,
        answerText(response, outcome, tally.streamed()),
        status === 'completed' ? 'completed' : 'incomplete',
      ),
    ],
    responseUsage(tally.usage(), tally.cachedInputTokens()),
    outcome.cadre,
  );
}
