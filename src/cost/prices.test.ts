import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../model/types.js';
import { loadPrices, parsePrices } from './price-file.js';
import { DEFAULT_PRICES, formatUsd, priceFor, priced } from './prices.js';

describe('prices', () => {
  it('a model matches its own id, else the longest id it starts with; provider prefixes are ignored', () => {
    expect(priceFor('gemini-2.5-flash', DEFAULT_PRICES)).toEqual(
      DEFAULT_PRICES['gemini-2.5-flash'],
    );
    expect(priceFor('gemini-2.5-flash-lite-preview', DEFAULT_PRICES)).toEqual(
      DEFAULT_PRICES['gemini-2.5-flash-lite'],
    );
    expect(priceFor('openai:gpt-4.1-2025-04-14', DEFAULT_PRICES)).toEqual(
      DEFAULT_PRICES['gpt-4.1'],
    );
    expect(priceFor('anthropic:claude-sonnet-4-5', DEFAULT_PRICES)).toEqual(
      DEFAULT_PRICES['claude-sonnet-4'],
    );
    expect(priceFor('ollama:qwen3', DEFAULT_PRICES)).toBeUndefined();
  });

  it('bills cached input at its own rate and thinking as output', () => {
    const usage = {
      ...emptyUsage(),
      inputTokens: 1_000_000,
      cachedInputTokens: 400_000,
      outputTokens: 100_000,
      thoughtTokens: 100_000,
    };
    const cost = priced(usage, { input: 1, output: 10, cachedInput: 0.25 }).costUsd;
    expect(cost).toBeCloseTo(0.6 + 0.1 + 2, 10);
    expect(priced(usage, undefined).costUsd).toBeUndefined();
  });

  it('formats small and large amounts', () => {
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(0.000123)).toBe('$0.00012');
    expect(formatUsd(0.5)).toBe('$0.5000');
    expect(formatUsd(12.345)).toBe('$12.35');
  });

  it('a project price file adds and overrides models; a bad one names the file and model', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cadre-prices-'));
    await writeFile(
      path.join(dir, 'prices.json'),
      JSON.stringify({ 'my-model': { input: 1, output: 2 }, 'gpt-4.1': { input: 9, output: 9 } }),
    );
    const table = await loadPrices(dir, { CADRE_PRICES: 'prices.json' });
    expect(priceFor('my-model-v2', table)).toEqual({ input: 1, output: 2 });
    expect(priceFor('gpt-4.1', table)).toEqual({ input: 9, output: 9 });
    expect(priceFor('gemini-2.5-pro', table)).toEqual(DEFAULT_PRICES['gemini-2.5-pro']);
    expect(await loadPrices(dir, {})).toBe(DEFAULT_PRICES);
    expect(() => parsePrices('{"x": {"input": 1}}', 'prices.json')).toThrow(
      /^prices\.json: x: output: expected a number \(an entry is \{"input": n, "output": n/,
    );
    expect(() => parsePrices('{"x": {"input": 1, "output": -2}, "y": 3}', 'p.json')).toThrow(
      /^p\.json: x: output: expected a number of dollars, not below 0\np\.json: y: expected \{"input"/,
    );
    expect(() => parsePrices('[1]', 'p.json')).toThrow(
      'p.json: expected a mapping of model ids to prices',
    );
    await expect(loadPrices(dir, { CADRE_PRICES: 'missing.json' })).rejects.toThrow(
      /Price file not readable: missing\.json/,
    );
  });
});
