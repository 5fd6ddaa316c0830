import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors/cadre-error.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { run } from '../../runtime/run-verbs.js';
import { DeepResearchAgent } from './deep-research.js';
import type { DeepResearchOptions } from './deep-research-config.js';
import {
  ConcurrencyGauge,
  firstUserText,
  lastUserText,
  researchRole,
  say,
  typesAt,
} from './testing/test-support.js';

const QUESTION = 'How do bees navigate?';

/** Decomposition → `queries` as JSON; each child → `child(query)`; synthesis → a fixed answer. */
function researchModel(
  queries: string[],
  child: (query: string) => ScriptedTurn = (q) => say(`A:${q}`, 5),
) {
  return new ScriptedModel((request: ModelRequest) => {
    switch (researchRole(request)) {
      case 'decompose':
        return say('```json\n' + JSON.stringify(queries) + '\n```', 10);
      case 'synthesis':
        return say('Bees use the sun and landmarks.', 20);
      case 'child':
        return child(firstUserText(request));
    }
  });
}

async function research(
  model: ScriptedModel | ConcurrencyGauge,
  options: DeepResearchOptions = {},
  signal?: AbortSignal,
) {
  const events: CadreEvent[] = [];
  const result = await run(new DeepResearchAgent(options), {
    inputs: { prompt: QUESTION },
    model,
    onEvent: (e) => events.push(e),
    ...(signal ? { signal } : {}),
  });
  return { result, events, of: (type: string) => events.filter((e) => e.type === type) };
}

const ORDER_TYPES = new Set([
  'run_started',
  'decomposition_started',
  'decomposition_complete',
  'turn_started',
  'usage',
  'sub_query_started',
  'sub_query_completed',
  'sub_query_failed',
  'synthesis_started',
  'final_result',
]);

describe('deep_research (scripted model responses)', () => {
  it('decomposes, researches each sub-query as a child, and synthesizes, emitting events in the documented order', async () => {
    const model = researchModel(['Q1', 'Q2', 'Q3']);
    const { result, events, of } = await research(model);

    expect(result.terminate_reason).toBe('GOAL');
    expect(result.content).toBe('Bees use the sun and landmarks.');
    expect(result.output).toEqual({
      sub_queries: ['Q1', 'Q2', 'Q3'],
      answers: [
        { id: 0, query: 'Q1', status: 'completed', answer: 'A:Q1' },
        { id: 1, query: 'Q2', status: 'completed', answer: 'A:Q2' },
        { id: 2, query: 'Q3', status: 'completed', answer: 'A:Q3' },
      ],
    });
    expect(typesAt(events, 0, ORDER_TYPES, /^sub_query_/)).toEqual([
      'run_started',
      'decomposition_started',
      'turn_started',
      'usage',
      'decomposition_complete',
      'sub_query_*',
      'synthesis_started',
      'turn_started',
      'usage',
      'final_result',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'final_result', depth: 0 });
    expect(of('final_result').filter((e) => e.depth === 0)).toHaveLength(1);
    expect(of('sub_query_started').map((e) => e.data)).toEqual(
      expect.arrayContaining([
        { id: 0, query: 'Q1' },
        { id: 1, query: 'Q2' },
        { id: 2, query: 'Q3' },
      ]),
    );
    expect(of('sub_query_completed').map((e) => e.message)).toEqual([
      'Sub-query 1/3 completed',
      'Sub-query 2/3 completed',
      'Sub-query 3/3 completed',
    ]);
    // Each child is its own execution, with its own events, under the root.
    const children = events.filter((e) => e.depth === 1);
    expect(new Set(children.map((e) => e.executionId)).size).toBe(3);
    expect(children.every((e) => e.parentExecutionId === result.execution_id)).toBe(true);
    expect(children.every((e) => e.path.join('/') === 'deep_research/sub_query')).toBe(true);
    expect(children.filter((e) => e.type === 'final_result')).toHaveLength(3);
    // The synthesis sees every finding; the runner counted the agent's own calls.
    const synthesis = model.requests.find((r) => researchRole(r) === 'synthesis');
    expect(lastUserText(synthesis as ModelRequest)).toMatch(/Q1\nA:Q1[\s\S]*Q3\nA:Q3/);
    expect(result.turns).toBe(2);
    expect(result.usage.totalTokens).toBe(30);
  });

  it('runs sub-queries in parallel, never more than maxConcurrent at once', async () => {
    const model = new ConcurrencyGauge(
      researchModel(['Q1', 'Q2', 'Q3', 'Q4', 'Q5'], (q) => say(`A:${q}`, 1, 60)),
      (r) => researchRole(r) === 'child',
    );
    const { result, events } = await research(model, { maxConcurrent: 2 });
    expect(result.terminate_reason).toBe('GOAL');
    expect(model.peak).toBe(2);
    let running = 0;
    let peak = 0;
    for (const e of events) {
      if (e.type === 'sub_query_started') peak = Math.max(peak, ++running);
      if (e.type === 'sub_query_completed' || e.type === 'sub_query_failed') running--;
    }
    expect(peak).toBe(2);
  });

  it('still synthesizes when one sub-query fails (the model throws for it), and reports the failure', async () => {
    const model = researchModel(['Q1', 'Q2', 'Q3'], (q) => {
      if (q === 'Q2') throw new Error('boom');
      return say(`A:${q}`);
    });
    const { result, of } = await research(model);
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.content).toBe('Bees use the sun and landmarks.');
    const failed = of('sub_query_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.data).toMatchObject({
      id: 1,
      query: 'Q2',
      timed_out: false,
      error: expect.stringContaining('boom'),
    });
    expect(of('synthesis_started')[0]?.data).toEqual({ succeeded: 2, failed: 1 });
    const synthesis = model.requests.find((r) => researchRole(r) === 'synthesis');
    expect(lastUserText(synthesis as ModelRequest)).toContain('Q2\n(no answer:');
    expect(
      (result.output as { answers: Array<{ status: string }> }).answers.map((a) => a.status),
    ).toEqual(['completed', 'failed', 'completed']);
  });

  it('says so in the final result when every sub-query failed, without a synthesis call', async () => {
    const model = researchModel(['Q1', 'Q2'], () => {
      throw new Error('provider down');
    });
    const { result, of } = await research(model);
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.content).toMatch(/all 2 sub-queries failed/);
    expect(of('sub_query_failed')).toHaveLength(2);
    expect(of('synthesis_started')).toHaveLength(0);
    expect(model.requests.some((r) => researchRole(r) === 'synthesis')).toBe(false);
  });

  it('reports a sub-query that outlives its phase budget as timed out, and still synthesizes in time', async () => {
    const model = researchModel(['Q1', 'Q2', 'Q3'], (q) =>
      say(`A:${q}`, 1, q === 'Q2' ? 10_000 : 10),
    );
    // Real time on purpose: the phase budgets are the agent's own timers, and finishing within
    // the total budget is what this test asserts.
    const started = performance.now();
    const { result, events, of } = await research(model, {
      totalTimeoutMs: 1_000,
      phaseBudgets: { decomposition: 0.2, subQueries: 0.3, synthesis: 0.5 },
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.content).toBe('Bees use the sun and landmarks.');
    expect(of('sub_query_failed').map((e) => e.data)).toEqual([
      { id: 1, query: 'Q2', error: 'timed out', timed_out: true },
    ]);
    expect(of('sub_query_failed')[0]?.message).toBe('Sub-query 3/3 failed: timed out');
    // The slow child was stopped, not left running behind the answer.
    const childEnds = events.filter((e) => e.type === 'final_result' && e.depth === 1);
    expect(childEnds).toHaveLength(3);
    expect(events.indexOf(childEnds.at(-1) as CadreEvent)).toBeLessThan(
      events.indexOf(of('synthesis_started')[0] as CadreEvent),
    );
  });

  it('ends ABORTED with exactly one root final_result when cancelled mid-run', async () => {
    const controller = new AbortController();
    // Cancelled once all three children (three at a time by default) are in their model call.
    let asked = 0;
    const model = researchModel(['Q1', 'Q2', 'Q3'], (q) => {
      if (++asked === 3) queueMicrotask(() => controller.abort());
      return say(`A:${q}`, 1, 10_000);
    });
    const events: CadreEvent[] = [];
    // A bound, not a wait: the children's 10 s model calls must end at the cancel.
    const started = performance.now();
    const result = await run(new DeepResearchAgent(), {
      inputs: { prompt: QUESTION },
      model,
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
      },
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.terminate_reason).toBe('ABORTED');
    const rootEnds = events.filter((e) => e.type === 'final_result' && e.depth === 0);
    expect(rootEnds).toHaveLength(1);
    expect(events.at(-1)).toBe(rootEnds[0]);
    expect(events.some((e) => e.type === 'synthesis_started')).toBe(false);
    // Cancellation is not a sub-query failure, and the children stopped too.
    expect(events.some((e) => e.type === 'sub_query_failed')).toBe(false);
    const childEnds = events.filter((e) => e.type === 'final_result' && e.depth === 1);
    expect(
      childEnds.map((e) => (e.data.result as { terminate_reason: string }).terminate_reason),
    ).toEqual(['ABORTED', 'ABORTED', 'ABORTED']);
  });

  it('falls back to the question itself when the decomposition has no usable list', async () => {
    const model = new ScriptedModel((request) =>
      researchRole(request) === 'decompose'
        ? say('I would look at the sun compass first.')
        : researchRole(request) === 'synthesis'
          ? say('answer')
          : say(`A:${firstUserText(request)}`),
    );
    const { result, of } = await research(model);
    expect(of('decomposition_complete')[0]?.data).toEqual({
      sub_queries: [QUESTION],
      fallback: 'no sub-queries in the reply',
    });
    expect(result.output).toMatchObject({ sub_queries: [QUESTION] });
    expect(result.content).toBe('answer');
  });

  it('rejects a bad configuration at construction, naming every problem', () => {
    expect(
      () =>
        new DeepResearchAgent({
          maxConcurrent: 0,
          phaseBudgets: { decomposition: 0.5, subQueries: 0.6 },
        }),
    ).toThrow(ConfigError);
    expect(() => new DeepResearchAgent({ maxConcurrent: 0, maxSubQueries: 1.5 })).toThrow(
      /maxSubQueries must be an integer of at least 1; maxConcurrent must be an integer/,
    );
  });
});
