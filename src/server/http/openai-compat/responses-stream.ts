import { CancelledError } from '../../../errors/cadre-error.js';
import type { CadreEvent } from '../../../events/types.js';
import { mapError } from '../error-mapping.js';
import { lazyStreamBody } from '../lazy-stream-body.js';
import { threadOf } from '../stream-lines.js';
import type { CadreIds } from './completion-shapes.js';
import { failedRun } from './failed-run.js';
import {
  messageId,
  outputMessage,
  outputText,
  responseHead,
  responseObject,
  responseUsage,
  settledStatus,
  type ResponseHead,
} from './response-shapes.js';
import type { ResponsesRun } from './responses-complete.js';
import { runOutcome, streamTail } from './run-outcome.js';
import { runTally } from './run-tally.js';
import { SSE_TYPE } from './sse-writer.js';
import { THREAD_HEADER } from './thread-header.js';

/**
 * Streams a run as the Responses API's named events: `response.created`
 * and `response.in_progress` once the run exists (with its thread in the
 * `x-cadre-thread-id` header), the output message and its text part, the
 * top-level agent's text as `response.output_text.delta`, what the text did
 * not say (a pause, a structured answer), the `.done` events, then
 * `response.completed` (or `response.incomplete` for a run waiting for
 * approval). A failure before the first event is rethrown for its status
 * code; after it, it is an `error` event, which OpenAI's SDKs raise.
 */
export async function streamResponse(run: ResponsesRun): Promise<void> {
  const createdMs = Date.now();
  const overflow = new AbortController();
  const body = lazyStreamBody(run.reply, SSE_TYPE, () =>
    overflow.abort(new CancelledError('The client stopped reading the stream.')),
  );
  let sequence = 0;
  const send = (type: string, fields: Record<string, unknown>): void =>
    body.write(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`,
    );
  const part = { item_id: '', output_index: 0, content_index: 0 };
  let head: ResponseHead | undefined;
  const begin = (ids: CadreIds): ResponseHead => {
    if (head) return head;
    if (ids.threadId) void run.reply.header(THREAD_HEADER, ids.threadId);
    head = responseHead(ids.runId, run.model, createdMs, run.previousRunId);
    part.item_id = messageId(head);
    const started = responseObject(head, 'in_progress', [], null);
    send('response.created', { response: started });
    send('response.in_progress', { response: started });
    send('response.output_item.added', {
      output_index: 0,
      item: outputMessage(head, undefined, 'in_progress'),
    });
    send('response.content_part.added', { ...part, part: outputText('') });
    return head;
  };
  const tally = runTally((delta) => {
    if (head) send('response.output_text.delta', { ...part, delta, logprobs: [] });
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
      const failed = failedRun(response, outcome.cadre);
      if (!body.opened) {
        void run.reply.header(THREAD_HEADER, response.threadId);
        return void (await run.reply.status(failed.status).send(failed.body));
      }
      const { code, message, cadre } = failed.body.error;
      send('error', { code, message, param: null, cadre });
      return body.end();
    }
    const last = begin({ runId: response.runId, threadId: response.threadId });
    const tail = streamTail(response, outcome, tally.streamed());
    if (tail) send('response.output_text.delta', { ...part, delta: tail, logprobs: [] });
    const text = tally.streamed() + tail;
    const status = settledStatus(outcome.cadre);
    const item = outputMessage(last, text, status === 'completed' ? 'completed' : 'incomplete');
    send('response.output_text.done', { ...part, text, logprobs: [] });
    send('response.content_part.done', { ...part, part: outputText(text) });
    send('response.output_item.done', { output_index: 0, item });
    const usage = responseUsage(tally.usage(), tally.cachedInputTokens());
    send(status === 'completed' ? 'response.completed' : 'response.incomplete', {
      response: responseObject(last, status, [item], usage, outcome.cadre),
    });
    body.end();
  } catch (error) {
    if (!body.opened) throw error;
    const mapped = mapError(error);
    if (mapped.serverFault) run.reply.log.error({ err: error }, 'streamed response failed');
    // A client that left reads nothing; the write is dropped.
    send('error', { code: mapped.code, message: mapped.message, param: null });
    body.end();
  }
}
