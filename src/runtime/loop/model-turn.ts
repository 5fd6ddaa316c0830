import type { EventSink } from '../../events/types.js';
import { SILENT } from './run-events.js';
import {
  addUsage,
  type FunctionCallPart,
  type ModelClient,
  type ModelRequest,
  type Part,
  type Usage,
} from '../../model/types.js';

export interface ModelTurn {
  /** Every part the model produced, in order, text next to calls kept. */
  parts: Part[];
  calls: FunctionCallPart[];
  text: string;
  usage?: Usage;
}

/**
 * Streams one model call, forwarding text and thoughts as they arrive and
 * merging consecutive fragments into whole parts for the history.
 */
export async function runModelTurn(
  client: ModelClient,
  request: ModelRequest,
  signal: AbortSignal,
  emit: EventSink,
): Promise<ModelTurn> {
  const parts: Part[] = [];
  const calls: FunctionCallPart[] = [];
  let text = '';
  let usage: Usage | undefined;
  let finish: string | undefined;
  for await (const chunk of client.generate(request, signal)) {
    switch (chunk.type) {
      case 'text': {
        text += chunk.text;
        appendText(parts, 'text', chunk.text, chunk.signature);
        if (emit !== SILENT)
          emit({ type: 'text_delta', message: chunk.text, data: { text: chunk.text } });
        break;
      }
      case 'thought':
        appendText(parts, 'thought', chunk.text, chunk.signature);
        if (emit !== SILENT)
          emit({ type: 'thought_delta', message: chunk.text, data: { text: chunk.text } });
        break;
      case 'function_call':
        parts.push(chunk.call);
        calls.push(chunk.call);
        break;
      case 'usage':
        usage = usage ? addUsage(usage, chunk.usage) : chunk.usage;
        break;
      case 'retry':
        emit({
          type: 'model_retry',
          message: `Model call failed (${chunk.reason}); retry ${chunk.attempt} in ${Math.round(chunk.delayMs)} ms`,
          data: { attempt: chunk.attempt, delayMs: chunk.delayMs, reason: chunk.reason },
        });
        break;
      case 'finish':
        finish = chunk.reason;
        break;
      default:
        chunk satisfies never;
    }
  }
  signal.throwIfAborted();
  return { parts, calls, text, usage: withFinish(usage, finish, client.provider) };
}

function appendText(
  parts: Part[],
  kind: 'text' | 'thought',
  text: string,
  signature?: string,
): void {
  const last = parts.at(-1);
  if (last && last.kind === kind && !last.signature) {
    last.text += text;
    if (signature) last.signature = signature;
  } else {
    parts.push(signature ? { kind, text, signature } : { kind, text });
  }
}

/** The turn's usage with the finish reason the stream ended with, for the usage event traces read. */
function withFinish(usage: Usage | undefined, finish: string | undefined, provider: string) {
  if (!usage || finish === undefined) return usage;
  return { ...usage, response: { provider, ...usage.response, finishReason: finish } };
}
