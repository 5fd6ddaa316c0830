import { lazyStreamBody } from '../lazy-stream-body.js';
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
import { SSE_TYPE } from './sse-writer.js';
import { streamOpenAiRun } from './stream-run.js';

/**
 * Streams a run as the Responses API's named events: `response.created`
 * and `response.in_progress` once the run exists, the output message and
 * its text part, the top-level agent's text as `response.output_text.delta`,
 * what the text did not say (a pause, a structured answer), the `.done`
 * events, then `response.completed` (or `response.incomplete` for a run
 * waiting for approval).
 */
export function streamResponse(run: ResponsesRun): Promise<void> {
  const createdMs = Date.now();
  return streamOpenAiRun<ResponseHead>(run, 'response', (onOverflow) => {
    const body = lazyStreamBody(run.reply, SSE_TYPE, onOverflow);
    let sequence = 0;
    const send = (type: string, fields: Record<string, unknown>): void =>
      body.write(
        `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`,
      );
    const part = { item_id: '', output_index: 0, content_index: 0 };
    const delta = (text: string) =>
      send('response.output_text.delta', { ...part, delta: text, logprobs: [] });
    return {
      get opened() {
        return body.opened;
      },
      open: (ids) => {
        const head = responseHead(ids.runId, run.model, createdMs, run.previousRunId);
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
      },
      text: (_head, text) => delta(text),
      finish: (head, { outcome, tail, tally }) => {
        if (tail) delta(tail);
        const text = tally.streamed() + tail;
        const status = settledStatus(outcome.cadre);
        const item = outputMessage(head, text, status === 'completed' ? 'completed' : 'incomplete');
        send('response.output_text.done', { ...part, text, logprobs: [] });
        send('response.content_part.done', { ...part, part: outputText(text) });
        send('response.output_item.done', { output_index: 0, item });
        const usage = responseUsage(tally.usage(), tally.cachedInputTokens());
        send(status === 'completed' ? 'response.completed' : 'response.incomplete', {
          response: responseObject(head, status, [item], usage, outcome.cadre),
        });
        body.end();
      },
      failed: ({ error: { code, message, cadre } }) => {
        send('error', { code, message, param: null, cadre });
        body.end();
      },
      error: (mapped) => {
        send('error', { code: mapped.code, message: mapped.message, param: null });
        body.end();
      },
    };
  });
}
