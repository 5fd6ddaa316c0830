import { describe, expect, it } from 'vitest';
import { CostBudget } from './cost-budget.js';
import { BUDGET_OUTPUT_TOKENS, estimateInputTokens, outputCeiling } from './call-estimate.js';

const held = (budget: CostBudget, usd: number) => {
  const r = budget.reserve(usd);
  if (r.kind !== 'held') throw new Error(`refused by $${r.limitUsd}`);
  return r.hold;
};

describe('CostBudget', () => {
  it('holds a call’s worst case, then keeps only its real cost', () => {
    const budget = CostBudget.open({ limitUsd: 1 });
    const hold = held(budget, 0.6);
    expect(budget.remainingUsd()).toBeCloseTo(0.4, 12);
    // Another 0.6 does not fit while the first is held...
    expect(budget.reserve(0.6)).toEqual({ kind: 'refused', limitUsd: 1 });
    hold.settle(0.1);
    // ...and fits once the unused 0.5 is released.
    expect(budget.spentUsd()).toBeCloseTo(0.1, 12);
    expect(budget.reserve(0.6).kind).toBe('held');
    // Settling twice counts once.
    hold.settle(0.1);
    expect(budget.spentUsd()).toBeCloseTo(0.1, 12);
  });

  it('concurrent reservations cannot both take the last of the budget', async () => {
    const budget = CostBudget.open({ limitUsd: 1 });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => Promise.resolve().then(() => budget.reserve(0.3).kind)),
    );
    expect(outcomes.filter((k) => k === 'held')).toHaveLength(3);
  });

  it('a child’s spending counts at every level; its own lower cap binds it alone', () => {
    const root = CostBudget.open({ limitUsd: 1 });
    const child = CostBudget.open({ limitUsd: 0.2, parent: root });
    const sibling = CostBudget.open({ parent: root });
    held(child, 0.15).settle(0.15);
    expect(root.spentUsd()).toBeCloseTo(0.15, 12);
    expect(child.reserve(0.1)).toEqual({ kind: 'refused', limitUsd: 0.2 });
    expect(sibling.reserve(0.8).kind).toBe('held');
    // The root's cap binds everyone: its room is gone.
    expect(sibling.reserve(0.1)).toEqual({ kind: 'refused', limitUsd: 1 });
    expect(child.tightestLimit()).toBe(1);
  });

  it('a resumed child’s earlier spend is its own: the parent already counted it', () => {
    const root = CostBudget.open({ limitUsd: 1, spentUsd: 0.5 });
    const child = CostBudget.open({ parent: root, spentUsd: 0.3 });
    expect(child.spentUsd()).toBe(0.3);
    expect(root.spentUsd()).toBe(0.5);
    held(child, 0.1).settle(0.1);
    expect([root.spentUsd(), child.spentUsd()]).toEqual([0.6, 0.4]);
  });

  it('once a cap is reached nothing starts, not even a call of unknown price', () => {
    const budget = CostBudget.open({ limitUsd: 0.1 });
    held(budget, 0).settle(0.2);
    expect(budget.exhausted()).toBe(0.1);
    expect(budget.reserve(0).kind).toBe('refused');
    expect(CostBudget.open({}).reserve(1e9).kind).toBe('held');
  });
});

describe('call estimates', () => {
  const request = {
    model: 'gemini-2.0-flash',
    systemInstruction: 'x'.repeat(300),
    messages: [
      { role: 'user' as const, parts: [{ kind: 'text' as const, text: 'y'.repeat(600) }] },
    ],
    tools: [],
    config: {},
  };

  it('estimates input on the high side of 4 characters a token, structure included', () => {
    // 900 characters of text alone would be 225 tokens at 4 a token.
    expect(estimateInputTokens(request)).toBeGreaterThanOrEqual(300);
    expect(estimateInputTokens(request)).toBeLessThan(340);
  });

  it('counts an image as a fixed amount, not by its base64 length', () => {
    const image = { mimeType: 'image/png', data: 'A'.repeat(3_000_000) };
    const withImages = {
      ...request,
      messages: [
        {
          role: 'user' as const,
          parts: [
            {
              kind: 'function_response' as const,
              id: 'c1',
              name: 'shot',
              response: { output: 'ok' },
              images: [image, image],
            },
          ],
        },
      ],
    };
    expect(estimateInputTokens(withImages)).toBeGreaterThan(3_200);
    expect(estimateInputTokens(withImages)).toBeLessThan(3_400);
  });

  it('bounds output by the request, else the budget default, and never above the model’s own limit', () => {
    expect(outputCeiling(request)).toBe(BUDGET_OUTPUT_TOKENS);
    expect(outputCeiling({ ...request, config: { maxOutputTokens: 100 } })).toBe(100);
    // gemini-2.0-flash writes at most 8,192.
    expect(outputCeiling({ ...request, config: { maxOutputTokens: 50_000 } })).toBe(8_192);
    expect(
      outputCeiling({ ...request, config: { maxOutputTokens: 100, thinkingBudget: 4_000 } }),
    ).toBe(4_100);
  });
});
