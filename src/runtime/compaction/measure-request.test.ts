import { describe, expect, it } from 'vitest';
import { estimateTokensOf } from '../../cost/call-estimate.js';
import type { Message, ToolDeclaration } from '../../model/types.js';
import { measureSize, type MeasuringContext } from './measure-request.js';

const text = (role: 'user' | 'model', body: string): Message => ({
  role,
  parts: [{ kind: 'text', text: body }],
});
const declarations: ToolDeclaration[] = [
  { name: 'add', description: 'Adds.', parameters: { type: 'object' } },
];

function context(messages: Message[]): MeasuringContext & { state: { messages: Message[] } } {
  return {
    state: { model: 'm', systemInstruction: 'Be brief.', messages },
    generation: {},
    budget: { inputScale: () => 1 },
  };
}

/** What measuring the whole conversation afresh gives. */
const whole = (ctx: MeasuringContext): number =>
  estimateTokensOf(['Be brief.', declarations]) +
  ctx.state.messages.reduce((sum, m) => sum + estimateTokensOf(m), 0);

describe('measureSize', () => {
  it('adds only the new messages each turn and matches measuring the whole conversation', () => {
    const ctx = context([text('user', 'go')]);
    expect(measureSize(ctx, declarations).estimated).toBe(whole(ctx));
    for (let turn = 0; turn < 5; turn++) {
      ctx.state.messages.push(text('model', 'x'.repeat(100 * turn)), text('user', 'ok'));
      expect(measureSize(ctx, declarations).estimated).toBe(whole(ctx));
    }
    expect(ctx.conversationTokens?.count).toBe(11);
  });

  it('starts again when the conversation is replaced (a fold) or a counted message is swapped', () => {
    const ctx = context([text('user', 'go'), text('model', 'y'.repeat(3_000))]);
    const before = measureSize(ctx, declarations).estimated;
    ctx.state.messages = [text('user', 'summary')];
    expect(measureSize(ctx, declarations).estimated).toBe(whole(ctx));
    expect(measureSize(ctx, declarations).estimated).toBeLessThan(before - 900);
    // Swapped in place, same length: the kept sum must not be trusted.
    ctx.state.messages[0] = text('user', 'z'.repeat(3_000));
    expect(measureSize(ctx, declarations).estimated).toBe(whole(ctx));
    // Shortened in place.
    ctx.state.messages.push(text('model', 'w'.repeat(600)));
    measureSize(ctx, declarations);
    ctx.state.messages.length = 1;
    expect(measureSize(ctx, declarations).estimated).toBe(whole(ctx));
  });
});
