import { abortableSleep } from './abortable-sleep.js';
import type { FunctionCallPart, ModelChunk, ModelClient, ModelRequest, Usage } from './types.js';

/** One scripted model turn, in the same shape the fake HTTP servers use. */
export interface ScriptedTurn {
  parts: Array<
    | { text: string }
    | { thought: string }
    | { functionCall: { name: string; args: Record<string, unknown>; id?: string } }
  >;
  usage?: Partial<Usage>;
  /** Wait this long before answering (simulates latency; aborts promptly). */
  delayMs?: number;
}

export type Script =
  readonly ScriptedTurn[] | ((request: ModelRequest, index: number) => ScriptedTurn);

/**
 * A model whose answers are written in advance: tests and benchmarks use it
 * so agent behaviour is deterministic. It records every request it gets.
 */
export class ScriptedModel implements ModelClient {
  readonly provider = 'scripted';
  readonly requests: ModelRequest[] = [];
  private readonly script: Script;
  private readonly recordRequests: boolean;

  constructor(script: Script, options: { recordRequests?: boolean } = {}) {
    this.script = script;
    this.recordRequests = options.recordRequests ?? true;
  }

  async *generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const index = this.requests.length;
    if (this.recordRequests) this.requests.push(structuredClone(request));
    else this.requests.length++;
    const turn =
      typeof this.script === 'function' ? this.script(request, index) : this.script[index];
    if (!turn)
      throw new Error(
        `Scripted model has no turn ${index + 1} (script has ${this.scriptLength()}).`,
      );
    if (turn.delayMs) await abortableSleep(turn.delayMs, signal);
    signal.throwIfAborted();
    let callNumber = 0;
    for (const part of turn.parts) {
      if ('text' in part) yield { type: 'text', text: part.text };
      else if ('thought' in part) yield { type: 'thought', text: part.thought };
      else {
        const call: FunctionCallPart = {
          kind: 'function_call',
          id: part.functionCall.id ?? `call_${index + 1}_${++callNumber}`,
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

  private scriptLength(): string {
    return typeof this.script === 'function' ? 'a function' : String(this.script.length);
  }
}
