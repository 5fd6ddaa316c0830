import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../model/scripted-model.js';
import { replayTrajectory } from './replay.js';
import { call, countingTools, recordNotifier } from './testing/test-support.js';

describe('forking a replay with until (both models scripted)', () => {
  it('replays N model steps, then a live model takes over and tools run for real', async () => {
    const { trajectory } = await recordNotifier();
    const live = new ScriptedModel([
      call('echo', { text: 'second opinion' }),
      call('complete_task', { report: { summary: 'Forked ending.' } }),
    ]);
    const real = countingTools();
    const {
      result,
      report,
      trajectory: forked,
    } = await replayTrajectory(trajectory, {
      until: 1,
      live: () => ({ client: live, model: 'other-model' }),
      tools: real.tools,
      record: true,
    });
    expect(result.terminate_reason).toBe('GOAL');
    expect(result.output).toEqual({ summary: 'Forked ending.' });
    expect(report).toMatchObject({
      forked_at: 2,
      model_steps: { replayed: 1, live: 2 },
      tool_steps: { replayed: 1, live: 1 },
      divergences: [],
    });
    // The echo of step 1 came from the recording; the one after the fork ran.
    expect(real.echoed).toEqual([{ text: 'second opinion' }]);
    expect(real.sent).toEqual([]);
    // The live model sees the replayed history, under its own model id.
    expect(live.requests[0]?.model).toBe('other-model');
    expect(JSON.stringify(live.requests[0]?.messages)).toContain('disk full');
    expect(forked?.model_steps).toHaveLength(3);
    expect(forked?.metadata.final_result.output).toEqual({ summary: 'Forked ending.' });
  });

  it('fails clearly when told to fork with no live model', async () => {
    const { trajectory } = await recordNotifier();
    const { result } = await replayTrajectory(trajectory, { until: 0 });
    expect(result.terminate_reason).toBe('ERROR');
    expect(result.error?.message).toContain('no live model was given');
  });
});
