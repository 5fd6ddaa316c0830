import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../model/types.js';
import { formatSummary } from './format-summary.js';
import { summarise } from './summarise.js';
import type { EvalReport, RowResult } from './types.js';

const row = (id: string, cost: number | undefined, judgeCost?: number): RowResult => ({
  row_id: id,
  repeat: 0,
  status: 'ok',
  attempts: 1,
  terminate_reason: 'GOAL',
  called_tools: [],
  latency_secs: 1,
  usage: emptyUsage(),
  ...(cost === undefined ? {} : { cost_usd: cost }),
  scores: {
    judge: {
      status: 'scored',
      score: 1,
      passed: true,
      ...(judgeCost === undefined ? {} : { usage: { ...emptyUsage(), costUsd: judgeCost } }),
    },
  },
});

describe('eval cost', () => {
  it('sums what the runs and the judges cost, and the summary says it', () => {
    const summary = summarise(
      [row('a', 0.01, 0.002), row('b', 0.02), row('c', undefined)],
      ['judge'],
    );
    expect(summary.cost_usd?.runs).toBeCloseTo(0.03, 10);
    expect(summary.cost_usd?.judge).toBeCloseTo(0.002, 10);
    expect(summary.cost_usd?.total).toBeCloseTo(0.032, 10);
    const report = {
      agent: 'x',
      dataset: 'd',
      started_at: '',
      duration_secs: 1,
      summary,
      results: [],
    };
    expect(formatSummary(report as unknown as EvalReport)).toMatch(
      /cost \$0\.0320 \(judge \$0\.0020\)/,
    );
  });

  it('no known price, no cost line', () => {
    expect(summarise([row('a', undefined)], ['judge']).cost_usd).toBeUndefined();
  });
});
