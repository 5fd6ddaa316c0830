import { describe, expect, it } from 'vitest';
import { DeepResearchAgent } from '../agents/builtin/deep-research.js';
import { ReactAgent } from '../agents/builtin/react.js';
import { firstUserText, researchRole, say } from '../agents/builtin/test-support.js';
import type { CadreEvent } from '../events/types.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { run } from '../runtime/run-verbs.js';
import { echoTool } from '../testing/test-tools.js';
import { DefaultTracker } from './default-tracker.js';
import { ExecutionState } from './execution-state.js';
import { PHASES } from './phases.js';
import { RunMetrics } from './run-metrics.js';

/** Four sub-queries of ~80 ms each, all at once; Q4's model reports no usage. */
async function deepResearchRun() {
  const model = new ScriptedModel((request) => {
    switch (researchRole(request)) {
      case 'decompose':
        return say('["Q1", "Q2", "Q3", "Q4"]', 10);
      case 'synthesis':
        return say('combined', 20);
      case 'child': {
        const query = firstUserText(request);
        return say(`A:${query}`, query === 'Q4' ? undefined : 3, 80);
      }
    }
  });
  const events: CadreEvent[] = [];
  const result = await run(new DeepResearchAgent({ maxConcurrent: 4 }), {
    inputs: { prompt: 'question' },
    model,
    onEvent: (e) => events.push(e),
  });
  return { result, events };
}

describe('trackers and metrics over real runs (scripted model responses)', () => {
  it('measures a deep_research run: tokens across the tree, unavailable usage, and a parallel speed-up > 1', async () => {
    const { result, events } = await deepResearchRun();
    const metrics = RunMetrics.fromEvents(events);
    expect(metrics).toMatchObject({
      turns: 6,
      steps: 0,
      subagents: 4,
      tokens: 10 + 20 + 3 * 3,
      tokensUnavailableCount: 1,
      terminateReason: 'GOAL',
    });
    expect(metrics.parallelSpeedup).toBeGreaterThan(1.5);
    expect(metrics.durationMs).toBeCloseTo(result.response_time_secs * 1000, 1);
  });

  it('completes the default tracker at the root final_result only', async () => {
    const { result, events } = await deepResearchRun();
    const tracker = new DefaultTracker();
    const completeAtChildEnds: boolean[] = [];
    for (const event of events) {
      tracker.handleEvent(event);
      if (event.type === 'final_result' && event.depth > 0)
        completeAtChildEnds.push(tracker.isComplete());
    }
    expect(completeAtChildEnds).toEqual([false, false, false, false]);
    expect(tracker.isComplete()).toBe(true);
    expect(tracker.finalResult()).toEqual(result);
  });

  it('follows deep_research through its phases and each sub-query child to its end', async () => {
    const { events } = await deepResearchRun();
    const state = new ExecutionState();
    const rootPhases: string[] = [];
    for (const event of events) {
      state.handleEvent(event);
      const phase = state.root()?.phase;
      if (phase && rootPhases.at(-1) !== phase) rootPhases.push(phase);
    }
    expect(rootPhases).toEqual([
      PHASES.NOT_STARTED,
      PHASES.DECOMPOSING,
      PHASES.EXECUTING,
      PHASES.SYNTHESIZING,
      PHASES.COMPLETE,
    ]);
    const children = state.children(state.root()?.executionId ?? '');
    expect(children).toHaveLength(4);
    expect(
      children.every(
        (c) =>
          c.agent === 'sub_query' &&
          c.status === 'finished' &&
          c.terminateReason === 'GOAL' &&
          c.phase === PHASES.COMPLETE,
      ),
    ).toBe(true);
  });

  it('follows react through thinking, acting and observing, counting its actions as steps', async () => {
    const model = new ScriptedModel([
      say('Thought: echo it\nAction: echo\nAction Input: {"text": "hi"}', 4),
      say('Thought: echo again\nAction: echo\nAction Input: {"text": "ho"}'),
      say('Thought: done\nFinal Answer: hi ho', 4),
    ]);
    const events: CadreEvent[] = [];
    await run(new ReactAgent({ tools: [echoTool()] }), {
      inputs: { prompt: 'q' },
      model,
      onEvent: (e) => events.push(e),
    });
    const state = new ExecutionState();
    const phases: string[] = [];
    for (const event of events) {
      state.handleEvent(event);
      const phase = state.root()?.phase;
      if (phase && phases.at(-1) !== phase) phases.push(phase);
    }
    expect(phases).toEqual([
      PHASES.NOT_STARTED,
      PHASES.THINKING,
      PHASES.ACTING,
      PHASES.OBSERVING,
      PHASES.THINKING,
      PHASES.ACTING,
      PHASES.OBSERVING,
      PHASES.THINKING,
      PHASES.COMPLETE,
    ]);
    expect(RunMetrics.fromEvents(events)).toMatchObject({
      steps: 2,
      turns: 3,
      tokens: 8,
      tokensUnavailableCount: 1,
      parallelSpeedup: 1,
      subagents: 0,
    });
  });
});
