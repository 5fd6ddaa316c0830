import { describe, expect, it } from 'vitest';
import { RunMetrics } from './run-metrics.js';
import { childOf, eventLog, finalData, ROOT } from './test-support.js';

const usage = (totalTokens: number): Record<string, unknown> => ({
  inputTokens: totalTokens - 1,
  outputTokens: 1,
  thoughtTokens: 0,
  totalTokens,
});

describe('RunMetrics.fromEvents (hand-made events)', () => {
  it('counts turns, steps, subagents and tokens across the tree; turns without usage are counted apart', () => {
    const log = eventLog();
    const a = childOf(ROOT, 'a');
    const b = childOf(ROOT, 'b');
    log.add(ROOT, 'run_started', 0);
    log.add(ROOT, 'turn_started', 1);
    log.add(ROOT, 'usage', 2, usage(10));
    log.add(ROOT, 'tool_call', 3);
    log.add(ROOT, 'subagent_started', 4, { executionId: 'a', agent: 'child' });
    log.add(a, 'turn_started', 5);
    log.add(a, 'turn_started', 6); // the first turn of `a` reported no usage
    log.add(a, 'usage', 7, usage(5));
    log.add(a, 'react_action', 8);
    log.add(a, 'final_result', 9, finalData('GOAL'));
    log.add(ROOT, 'subagent_started', 10, { executionId: 'b', agent: 'child' });
    log.add(b, 'turn_started', 11);
    log.add(b, 'final_result', 12, finalData('ERROR')); // ended without usage
    log.add(ROOT, 'turn_started', 13); // still running at the end: no usage either
    const metrics = RunMetrics.fromEvents(log.events);
    expect(metrics).toMatchObject({
      turns: 5,
      steps: 2,
      subagents: 2,
      tokens: 15,
      usage: { inputTokens: 13, outputTokens: 2, thoughtTokens: 0, totalTokens: 15 },
      tokensUnavailableCount: 3,
      durationMs: 13,
    });
    expect(metrics.terminateReason).toBeUndefined();
  });

  it("takes the root's duration and terminate reason from its final result", () => {
    const log = eventLog();
    log.add(ROOT, 'run_started', 0);
    log.add(ROOT, 'final_result', 500, {
      result: { terminate_reason: 'GOAL', content: 'x', response_time_secs: 0.4995 },
    });
    log.add(ROOT, 'stray', 900);
    expect(RunMetrics.fromEvents(log.events)).toMatchObject({
      durationMs: 499.5,
      terminateReason: 'GOAL',
    });
  });

  it.each([
    [
      'sequential children',
      [
        [0, 100],
        [100, 200],
        [250, 300],
      ],
      1,
    ],
    [
      'two children fully overlapping',
      [
        [0, 100],
        [0, 100],
      ],
      2,
    ],
    [
      'two overlapping, one alone (only the overlap counts)',
      [
        [0, 100],
        [50, 150],
        [200, 300],
      ],
      200 / 150,
    ],
    [
      'four children two at a time',
      [
        [0, 100],
        [0, 100],
        [100, 200],
        [100, 200],
      ],
      2,
    ],
  ])('parallelSpeedup: %s', (_name, spans, expected) => {
    const log = eventLog();
    log.add(ROOT, 'run_started', 0);
    spans.forEach(([start, end], i) => {
      const child = childOf(ROOT, `c${i}`);
      log.add(child, 'run_started', start as number);
      log.add(child, 'final_result', end as number, finalData('GOAL'));
    });
    log.add(ROOT, 'final_result', 400, finalData('GOAL'));
    expect(RunMetrics.fromEvents(log.events).parallelSpeedup).toBeCloseTo(expected, 6);
  });

  it('does not count children of different parents as parallel', () => {
    const log = eventLog();
    const p1 = childOf(ROOT, 'p1');
    const p2 = childOf(ROOT, 'p2');
    log.add(p1, 'run_started', 0);
    log.add(p2, 'run_started', 50);
    for (const [parent, id] of [
      [p1, 'x'],
      [p2, 'y'],
    ] as const) {
      const child = childOf(parent, id);
      log.add(child, 'run_started', 60);
      log.add(child, 'final_result', 90, finalData('GOAL'));
    }
    log.add(p1, 'final_result', 100, finalData('GOAL'));
    log.add(p2, 'final_result', 150, finalData('GOAL'));
    // Only p1 and p2 (siblings under the root) overlap: 200 ms of work in 150 ms.
    // Counting x and y together would give (200 + 60) / (150 + 30).
    const metrics = RunMetrics.fromEvents(log.events);
    expect(metrics.parallelSpeedup).toBeCloseTo(200 / 150, 6);
    expect(metrics.subagents).toBe(4);
  });

  it('is all zeros and a speed-up of 1 for no events', () => {
    expect(RunMetrics.fromEvents([])).toEqual({
      durationMs: 0,
      steps: 0,
      turns: 0,
      tokens: 0,
      usage: { inputTokens: 0, outputTokens: 0, thoughtTokens: 0, totalTokens: 0 },
      tokensUnavailableCount: 0,
      subagents: 0,
      parallelSpeedup: 1,
    });
  });
});
