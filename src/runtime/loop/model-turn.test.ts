import { describe, expect, it } from 'vitest';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../../model/types.js';
import { runModelTurn } from './model-turn.js';
import { SILENT } from './run-events.js';

const request: ModelRequest = { model: 'm', messages: [], tools: [], config: {} };
const usage = { inputTokens: 3, outputTokens: 2, thoughtTokens: 0, totalTokens: 5 };

/** A client streaming the given chunks, as a provider client (or a recording) would. */
const streaming = (chunks: ModelChunk[]): ModelClient => ({
  specificationVersion: MODEL_SPECIFICATION_VERSION,
  provider: 'fake',
  async *generate() {
    yield* chunks;
  },
});

describe('a model turn reads why the response ended from its finish chunk', () => {
  it('puts the finish chunk’s reason on the turn’s usage, where traces read it', async () => {
    const turn = await runModelTurn(
      streaming([
        { type: 'text', text: 'hi' },
        { type: 'finish', reason: 'end_turn' },
        { type: 'usage', usage: { ...usage, response: { provider: 'fake', id: 'r1' } } },
      ]),
      request,
      new AbortController().signal,
      SILENT,
    );
    expect(turn.usage?.response).toEqual({ provider: 'fake', id: 'r1', finishReason: 'end_turn' });
  });

  it('keeps the reason a recording made before the chunk carried in usage.response', async () => {
    const old = { ...usage, response: { provider: 'gemini', finishReason: 'STOP' } };
    const turn = await runModelTurn(
      streaming([
        { type: 'text', text: 'hi' },
        { type: 'usage', usage: old },
      ]),
      request,
      new AbortController().signal,
      SILENT,
    );
    expect(turn.usage?.response?.finishReason).toBe('STOP');
  });
});
