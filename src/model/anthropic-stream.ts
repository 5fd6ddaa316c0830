/**
 * Turns Anthropic's streamed events into our chunks: text as it arrives,
 * thinking with its signature on the block's last chunk (so the history
 * keeps one signed thought per thinking block), each tool call when its
 * block closes, and the usage once the message is complete.
 */
import type {
  RawMessageStreamEvent,
  RefusalStopDetails,
  StopReason,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { ModelError } from '../errors/index.js';
import { REDACTED_THINKING_PREFIX } from './anthropic-mapping.js';
import { mergeUsage, usageOf, type UsageSoFar } from './anthropic-usage.js';
import { parseArgs } from './openai-tool-calls.js';
import type { ModelChunk, ModelResponseInfo } from './types.js';

type OpenBlock =
  | { kind: 'text' }
  /** `held`: the newest thinking text, kept back until we know whether the signature follows. */
  | { kind: 'thinking'; held?: string }
  | { kind: 'tool_use'; id: string; name: string; json: string; input: unknown }
  | { kind: 'other' };

export class AnthropicStreamReader {
  readonly #blocks = new Map<number, OpenBlock>();
  readonly #nextCallId: () => string;
  #usage: UsageSoFar = {};
  #stopReason: StopReason | null = null;
  #stopDetails: RefusalStopDetails | null = null;
  #stopped = false;
  readonly #response: ModelResponseInfo;

  /** `about`: the client's provider and base URL, for the response's trace attributes. */
  constructor(
    nextCallId: () => string,
    about: Pick<ModelResponseInfo, 'provider' | 'endpoint'> = { provider: 'anthropic' },
  ) {
    this.#nextCallId = nextCallId;
    this.#response = { ...about };
  }

  *read(event: RawMessageStreamEvent): Generator<ModelChunk> {
    switch (event.type) {
      case 'message_start':
        this.#usage = { ...event.message.usage };
        this.#response.id = event.message.id;
        this.#response.model = event.message.model;
        break;
      case 'content_block_start':
        yield* this.#start(event.index, event.content_block);
        break;
      case 'content_block_delta':
        yield* this.#delta(event.index, event.delta);
        break;
      case 'content_block_stop':
        yield* this.#stop(event.index);
        break;
      case 'message_delta':
        this.#stopReason = event.delta.stop_reason;
        this.#stopDetails = event.delta.stop_details ?? null;
        this.#usage = mergeUsage(this.#usage, event.usage);
        break;
      case 'message_stop':
        this.#stopped = true;
        break;
      default:
        event satisfies never;
    }
  }

  /** Call once the stream has ended (and was not aborted): the usage, or why the turn is unusable. */
  *finish(): Generator<ModelChunk> {
    if (!this.#stopped)
      throw new ModelError('Anthropic stream ended before message_stop', { retryable: false });
    const reason = this.#stopReason;
    switch (reason) {
      case 'refusal':
        throw new ModelError(`Claude declined to answer (stop_reason refusal)${this.#why()}`, {
          retryable: false,
        });
      // Truncated turns pass on what came: a cut-off tool input arrives as
      // __invalid_json__, which the executor answers with an error the model sees.
      case 'max_tokens':
      case 'model_context_window_exceeded':
      // pause_turn only follows server tools, which Cadre never declares.
      case 'pause_turn':
      case 'end_turn':
      case 'tool_use':
      case 'stop_sequence':
      case null:
        break;
      default:
        reason satisfies never;
    }
    if (reason) yield { type: 'finish', reason };
    yield { type: 'usage', usage: { ...usageOf(this.#usage), response: this.#response } };
  }

  #why(): string {
    const details = this.#stopDetails;
    const why = [details?.category, details?.explanation].filter(Boolean).join(': ');
    return why ? `: ${why}` : '';
  }

  *#start(
    index: number,
    block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'],
  ): Generator<ModelChunk> {
    switch (block.type) {
      case 'text':
        this.#blocks.set(index, { kind: 'text' });
        if (block.text) yield { type: 'text', text: block.text };
        break;
      case 'thinking':
        this.#blocks.set(index, {
          kind: 'thinking',
          ...(block.thinking ? { held: block.thinking } : {}),
        });
        break;
      case 'redacted_thinking':
        this.#blocks.set(index, { kind: 'other' });
        yield { type: 'thought', text: '', signature: `${REDACTED_THINKING_PREFIX}${block.data}` };
        break;
      case 'tool_use':
        this.#blocks.set(index, {
          kind: 'tool_use',
          id: block.id,
          name: block.name,
          json: '',
          input: block.input,
        });
        break;
      default:
        // Server tools and their results: Cadre declares none, so none should come.
        this.#blocks.set(index, { kind: 'other' });
    }
  }

  *#delta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'],
  ): Generator<ModelChunk> {
    const block = this.#blocks.get(index);
    switch (delta.type) {
      case 'text_delta':
        if (delta.text) yield { type: 'text', text: delta.text };
        break;
      case 'thinking_delta':
        if (block?.kind !== 'thinking' || !delta.thinking) break;
        if (block.held !== undefined) yield { type: 'thought', text: block.held };
        block.held = delta.thinking;
        break;
      case 'signature_delta':
        if (block?.kind !== 'thinking') break;
        yield { type: 'thought', text: block.held ?? '', signature: delta.signature };
        delete block.held;
        break;
      case 'input_json_delta':
        if (block?.kind === 'tool_use') block.json += delta.partial_json;
        break;
      case 'citations_delta':
        break;
      default:
        delta satisfies never;
    }
  }

  *#stop(index: number): Generator<ModelChunk> {
    const block = this.#blocks.get(index);
    this.#blocks.delete(index);
    if (block?.kind === 'thinking' && block.held !== undefined) {
      yield { type: 'thought', text: block.held }; // no signature came
    } else if (block?.kind === 'tool_use') {
      yield {
        type: 'function_call',
        call: {
          kind: 'function_call',
          id: block.id || this.#nextCallId(),
          name: block.name,
          args: block.json === '' ? inputObject(block.input) : parseArgs(block.json),
        },
      };
    }
  }
}

function inputObject(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}
