import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors/model-error.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { MODEL_SPECIFICATION_VERSION, type ModelChunk, type ModelClient } from '../model/types.js';
import { runEval } from './run-eval.js';
import { containsScorer } from './scorers/contains.js';
import { toolCalledScorer } from './scorers/tool-called.js';
import { assistant, rows, scriptedModelFor, tools } from './testing/test-support.js';
import type { EvalProgress } from './types.js';

const scorers = [containsScorer(), toolCalledScorer()];

describe('runEval over a small dataset (scripted model behaviour)', () => {
  it('gives the expected scores, pass rates, skips and tokens', async () => {
    const progress: EvalProgress[] = [];
    const report = await runEval(assistant, rows, {
      scorers,
      run: { tools },
      model: scriptedModelFor,
      onProgress: (p) => progress.push(p),
    });
    const scoreOf = (id: string, scorer: string) =>
      report.results.find((r) => r.row_id === id)?.scores[scorer];
    expect(scoreOf('france', 'contains')).toMatchObject({
      status: 'scored',
      score: 1,
      passed: true,
    });
    expect(scoreOf('spain', 'contains')).toMatchObject({ score: 0, detail: 'not found: "Madrid"' });
    expect(scoreOf('hello', 'contains')).toMatchObject({ score: 1 });
    expect(scoreOf('notify', 'contains')).toEqual({
      status: 'skipped',
      reason: 'the row has no expected',
    });
    expect(scoreOf('france', 'tool_called')).toMatchObject({ score: 1, label: 'pass' });
    expect(scoreOf('spain', 'tool_called')).toMatchObject({ score: 0.5, label: 'partial' });
    expect(scoreOf('notify', 'tool_called')).toMatchObject({
      score: 0,
      label: 'fail',
      detail: 'expected send, called echo',
    });
    expect(report.summary.scorers).toEqual({
      contains: { mean: 2 / 3, pass_rate: 2 / 3, scored: 3, passed: 2, skipped: 1, errors: 0 },
      tool_called: { mean: 0.5, pass_rate: 1 / 3, scored: 3, passed: 1, skipped: 1, errors: 0 },
    });
    expect(report.summary).toMatchObject({ runs: 4, completed: 4, run_errors: 0, aborted: 0 });
    // france, spain, notify: a tool turn (12) + an answer (23); hello: one answer.
    expect(report.summary.tokens).toMatchObject({ total: 3 * 35 + 23, judge: 0 });
    expect(report.summary.latency.p50_secs).toBeGreaterThan(0);
    expect(report.results.find((r) => r.row_id === 'spain')?.called_tools).toEqual([
      'echo',
      'send',
    ]);
    expect(progress.at(-1)).toEqual({ total: 4, done: 4, ok: 2, failed: 2 });
    expect(report.interrupted).toBe(false);
  });

  it('runs every row --repeat times, keeping order', async () => {
    const report = await runEval(assistant, rows.slice(0, 2), {
      scorers,
      run: { tools },
      model: scriptedModelFor,
      repeat: 3,
    });
    expect(report.results.map((r) => `${r.row_id}#${r.repeat}`)).toEqual([
      'france#0',
      'france#1',
      'france#2',
      'spain#0',
      'spain#1',
      'spain#2',
    ]);
    expect(report.summary.scorers.contains?.mean).toBeCloseTo(0.5);
  });

  it('retries a failed run, and a run that keeps failing fails its scorers instead of being skipped', async () => {
    const attempts = new Map<string, number>();
    const flaky =
      (failures: number) =>
      (row: { id: string }): ModelClient => {
        const n = (attempts.get(row.id) ?? 0) + 1;
        attempts.set(row.id, n);
        return n <= failures ? failing() : scriptedModelFor(rows[0]!);
      };
    const recovered = await runEval(assistant, [rows[0]!], {
      scorers,
      run: { tools },
      model: flaky(1),
      retries: 1,
    });
    expect(recovered.results[0]).toMatchObject({ status: 'ok', attempts: 2 });
    attempts.clear();
    const broken = await runEval(assistant, [rows[0]!], {
      scorers,
      run: { tools },
      model: flaky(9),
      retries: 2,
    });
    expect(broken.results[0]).toMatchObject({
      status: 'run_error',
      attempts: 3,
      error: expect.stringContaining('provider down'),
    });
    expect(broken.results[0]?.scores.contains).toMatchObject({
      status: 'scored',
      score: 0,
      label: 'fail',
    });
    expect(broken.summary).toMatchObject({ run_errors: 1, scorers: { contains: { mean: 0 } } });
  });

  it('keeps at most --concurrency runs going at once', async () => {
    let running = 0;
    let peak = 0;
    const slow = (): ModelClient => ({
      specificationVersion: MODEL_SPECIFICATION_VERSION,
      provider: 'counting',
      async *generate(request, signal): AsyncIterable<ModelChunk> {
        running++;
        peak = Math.max(peak, running);
        try {
          yield* new ScriptedModel([{ parts: [{ text: 'Paris' }], delayMs: 20 }]).generate(
            request,
            signal,
          );
        } finally {
          running--;
        }
      },
    });
    const many = Array.from({ length: 6 }, (_, i) => ({
      id: `r${i}`,
      input: 'q',
      expected: 'paris',
      source: 'x',
    }));
    const report = await runEval(assistant, many, {
      scorers: [containsScorer()],
      run: { tools },
      model: slow,
      concurrency: 2,
    });
    expect(peak).toBe(2);
    expect(report.summary.scorers.contains?.mean).toBe(1);
  });

  it('stops starting rows when cancelled and summarises what finished', async () => {
    const controller = new AbortController();
    const many = Array.from({ length: 5 }, (_, i) => ({
      id: `r${i}`,
      input: 'q',
      expected: 'paris',
      source: 'x',
    }));
    const report = await runEval(assistant, many, {
      scorers: [containsScorer()],
      run: { tools },
      model: () => new ScriptedModel([{ parts: [{ text: 'Paris' }], delayMs: 30 }]),
      concurrency: 1,
      signal: controller.signal,
      onProgress: (p) => p.done === 2 && controller.abort(),
    });
    expect(report.interrupted).toBe(true);
    expect(report.summary).toMatchObject({ runs: 5, completed: 2, not_started: 3 });
    expect(report.summary.scorers.contains).toMatchObject({ scored: 2, mean: 1 });
  });
});

function failing(): ModelClient {
  return {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    provider: 'failing',
    async *generate(): AsyncIterable<ModelChunk> {
      throw new ModelError('provider down');
    },
  };
}
