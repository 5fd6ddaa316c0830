// Test-only: scripted models for the built-in agents.
import type { CadreEvent } from '../../../events/types.js';
import type { ScriptedTurn } from '../../../model/scripted-model.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../../../model/types.js';

export const say = (text: string, totalTokens?: number, delayMs?: number): ScriptedTurn => ({
  parts: [{ text }],
  ...(totalTokens === undefined ? {} : { usage: { inputTokens: totalTokens, totalTokens } }),
  ...(delayMs === undefined ? {} : { delayMs }),
});

/** The text of a request's first user message (the question, or a sub-query). */
export const firstUserText = (request: ModelRequest): string => {
  const part = request.messages[0]?.parts[0];
  return part?.kind === 'text' ? part.text : '';
};

export const lastUserText = (request: ModelRequest): string => {
  const part = request.messages.at(-1)?.parts[0];
  return part?.kind === 'text' ? part.text : '';
};

/** Which deep_research call a request is, from its system instruction. */
export function researchRole(request: ModelRequest): 'decompose' | 'synthesis' | 'child' {
  const system = request.systemInstruction ?? '';
  if (system.includes('JSON array of strings')) return 'decompose';
  if (system.includes('final answer of a research task')) return 'synthesis';
  return 'child';
}

/** Wraps a model and measures how many matching calls were in flight at once. */
export class ConcurrencyGauge implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'gauge';
  active = 0;
  peak = 0;

  constructor(
    private readonly inner: ModelClient,
    private readonly counts: (request: ModelRequest) => boolean,
  ) {}

  async *generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const counted = this.counts(request);
    if (counted) this.peak = Math.max(this.peak, ++this.active);
    try {
      yield* this.inner.generate(request, signal);
    } finally {
      if (counted) this.active--;
    }
  }
}

/** Event types of one execution depth, with consecutive repeats of `collapse` merged. */
export function typesAt(
  events: readonly CadreEvent[],
  depth: number,
  keep: ReadonlySet<string>,
  collapse: RegExp,
): string[] {
  const types: string[] = [];
  for (const event of events) {
    if (event.depth !== depth || !keep.has(event.type)) continue;
    const type = collapse.test(event.type) ? 'sub_query_*' : event.type;
    if (types.at(-1) !== type || type !== 'sub_query_*') types.push(type);
  }
  return types;
}
