import { nodeCrypto } from '../util/builtins-on-demand.js';
import { ModelError } from '../errors/model-error.js';
import { realClock } from '../util/clock.js';
import { holds, toolResultText, type ScriptCondition } from './script-conditions.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type FunctionCallPart,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
  type Usage,
} from './types.js';

export type { ScriptCondition, ToolOutcome } from './script-conditions.js';

export type ScriptedPart =
  | { text: string }
  | { thought: string }
  | { functionCall: { name: string; args: Record<string, unknown>; id?: string } };

/** Parts that answer instead of the turn's own when `when` holds. */
export interface ScriptedBranch {
  when: ScriptCondition;
  parts: ScriptedPart[];
}

/** One scripted model turn, in the same shape the fake HTTP servers use. */
export interface ScriptedTurn {
  /** The answer when no branch applies. `{{toolResult}}` in a text is what the latest tool calls returned. */
  parts: ScriptedPart[];
  /** Tried in order first: the first whose condition holds answers instead (what a tool returned, what the prompt says). */
  branches?: ScriptedBranch[];
  usage?: Partial<Usage>;
  /** Wait this long before answering (simulates latency; aborts promptly). */
  delayMs?: number;
}

export type Script =
  readonly ScriptedTurn[] | ((request: ModelRequest, index: number) => ScriptedTurn);

export interface ScriptedModelOptions {
  recordRequests?: boolean;
  /** Where the script came from (its file), for the message when it runs out. */
  source?: string;
  /**
   * A client made for a conversation already under way (a run resumed after a
   * restart, or by another process) starts after the model turns the request
   * shows since the latest prompt, instead of at turn 1.
   */
  resume?: boolean;
  /**
   * Call ids unique to this client (`call_3fa9c2d1_1_1`) instead of `call_1_1`:
   * tools key their effects on call ids (a calendar event's UID), so
   * conversations sharing a workspace must not reuse them.
   */
  uniqueCallIds?: boolean;
}

const TOOL_RESULT = '{{toolResult}}';

/**
 * A model whose answers are written in advance: tests and benchmarks use it
 * so agent behaviour is deterministic. It records every request it gets.
 * Each instance plays its script once, from the start: one conversation.
 */
export class ScriptedModel implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'scripted';
  readonly requests: ModelRequest[] = [];
  private readonly script: Script;
  private readonly options: ScriptedModelOptions;
  private readonly idPrefix: string;
  private skipped = 0;

  constructor(script: Script, options: ScriptedModelOptions = {}) {
    this.script = script;
    this.options = options;
    this.idPrefix = options.uniqueCallIds
      ? `call_${nodeCrypto().randomBytes(4).toString('hex')}_`
      : 'call_';
  }

  async *generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    if (this.options.resume && this.requests.length === 0) this.skipped = turnsSincePrompt(request);
    const index = this.skipped + this.requests.length;
    if (this.options.recordRequests ?? true) this.requests.push(structuredClone(request));
    else this.requests.length++;
    const turn =
      typeof this.script === 'function' ? this.script(request, index) : this.script[index];
    if (!turn) throw this.exhausted(index);
    if (turn.delayMs) await realClock.sleep(turn.delayMs, signal);
    signal.throwIfAborted();
    const parts = turn.branches?.find((b) => holds(b.when, request))?.parts ?? turn.parts;
    let callNumber = 0;
    for (const part of parts) {
      if ('text' in part) yield { type: 'text', text: filled(part.text, request) };
      else if ('thought' in part) yield { type: 'thought', text: part.thought };
      else {
        const call: FunctionCallPart = {
          kind: 'function_call',
          id: part.functionCall.id ?? `${this.idPrefix}${index + 1}_${++callNumber}`,
          name: part.functionCall.name,
          args: part.functionCall.args,
        };
        yield { type: 'function_call', call };
      }
    }
    const usage = turn.usage;
    if (usage) {
      const inputTokens = usage.inputTokens ?? 0;
      const outputTokens = usage.outputTokens ?? 0;
      const thoughtTokens = usage.thoughtTokens ?? 0;
      yield {
        type: 'usage',
        usage: {
          inputTokens,
          outputTokens,
          thoughtTokens,
          totalTokens: usage.totalTokens ?? inputTokens + outputTokens + thoughtTokens,
        },
      };
    }
  }

  /** A run that asks for more than the script holds fails with a model error that says so. */
  private exhausted(index: number): ModelError {
    if (typeof this.script === 'function')
      return new ModelError(`Scripted model has no turn ${index + 1} (its script gave none).`);
    const from = this.options.source ? ` in ${this.options.source}` : '';
    return new ModelError(
      `Scripted model has no turn ${index + 1}: the script${from} has ${this.script.length}, ` +
        'and each conversation (a server thread, a `cadre run`) plays them once. ' +
        'Start a new one, or add turns to the script.',
    );
  }
}

const filled = (text: string, request: ModelRequest): string =>
  text.includes(TOOL_RESULT) ? text.replaceAll(TOOL_RESULT, toolResultText(request)) : text;

/** Model turns after the last user message with text (the prompt, or a nudge since). */
function turnsSincePrompt(request: ModelRequest): number {
  let turns = 0;
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (message?.role === 'model') turns++;
    else if (message?.parts.some((p) => p.kind === 'text')) break;
  }
  return turns;
}
