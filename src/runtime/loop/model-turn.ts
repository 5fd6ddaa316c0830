import type { EventSink } from '../../events/types.js';
import { SILENT } from './run-events.js';
import {
  addUsage,
  type FunctionCallPart,
  type ModelChunk,
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
  const turn = new TurnCollector(emit);
  for await (const chunk of client.generate(request, signal)) turn.add(chunk);
  signal.throwIfAborted();
  return turn.finish(client.provider);
}

/**
 * One model call's chunks gathered into a turn. The loop streams a turn's
 * chunks into it in its own frame (one async frame less per turn than
 * awaiting runModelTurn); everything else calls runModelTurn.
 */
export class TurnCollector {
  readonly #parts: Part[] = [];
  readonly #calls: FunctionCallPart[] = [];
  #text = '';
  #usage: Usage | undefined;
  #finish: string | undefined;

  constructor(private readonly emit: EventSink) {}

  add(chunk: ModelChunk): void {
    const emit = this.emit;
    switch (chunk.type) {
      case 'text': {
        this.#text += chunk.text;
        appendText(this.#parts, 'text', chunk.text, chunk.signature);
        if (emit !== SILENT)
          emit({ type: 'text_delta', message: chunk.text, data: { text: chunk.text } });
        break;
      }
      case 'thought':
        appendText(this.#parts, 'thought', chunk.text, chunk.signature);
        if (emit !== SILENT)
          emit({ type: 'thought_delta', message: chunk.text, data: { text: chunk.text } });
        break;
      case 'function_call':
        this.#parts.push(chunk.call);
        this.#calls.push(chunk.call);
        break;
      case 'usage':
        this.#usage = this.#usage ? addUsage(this.#usage, chunk.usage) : chunk.usage;
        break;
      case 'retry':
        emit({
          type: 'model_retry',
          message: `Model call failed (${chunk.reason}); retry ${chunk.attempt} in ${Math.round(chunk.delayMs)} ms`,
          data: { attempt: chunk.attempt, delayMs: chunk.delayMs, reason: chunk.reason },
        });
        break;
      case 'finish':
        this.#finish = chunk.reason;
        break;
      default:
        chunk satisfies never;
    }
  }

  /** The whole turn, its usage carrying the finish reason the stream ended with. */
  finish(provider: string): ModelTurn {
    return {
      parts: this.#parts,
      calls: this.#calls,
      text: this.#text,
      usage: withFinish(this.#usage, this.#finish, provider),
    };
  }
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
