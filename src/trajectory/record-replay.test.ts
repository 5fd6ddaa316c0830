import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../events/types.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { comparableEvents } from './comparable-events.js';
import { replayTrajectory } from './replay.js';
import { runRecorded } from './run-recorded.js';
import { defineTool } from '../tools/types.js';
import type { Clock } from '../util/clock.js';
import { call, countingTools, notifier, recordNotifier } from './testing/test-support.js';

const noTools = { ...notifier, toolConfig: { tools: [] } };
const complete = call('complete_task', { report: { summary: 's' } });

const stable = (value: unknown): unknown => comparableEvents([value as CadreEvent])[0];

describe('recording a run (scripted model behaviour)', () => {
  it('keeps model steps, tool steps with side-effect flags, approvals, events and metadata', async () => {
    const { result, trajectory, events } = await recordNotifier();
    expect(result.terminate_reason).toBe('GOAL');
    expect(trajectory).toMatchObject({
      schema_version: 1,
      run_id: result.run_id,
      agent: { name: 'notifier', dropped: [] },
      inputs: { topic: 'disks' },
      model: { provider: 'scripted', name: 'gemini-2.5-flash' },
      metadata: { terminate_reason: 'GOAL', total_tokens: 45, tokens_unavailable_count: 0 },
    });
    expect(trajectory.agent.definition_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(trajectory.model_steps).toHaveLength(3);
    const [first, second] = trajectory.model_steps;
    expect(first?.request.systemInstruction).toContain('You notify people about disks.');
    expect(first?.chunks.map((c) => c.type)).toEqual(['thought', 'function_call', 'usage']);
    expect(second?.request.messages).toHaveLength(3);
    expect(trajectory.tool_steps.map((s) => [s.tool, s.side_effect, s.outcome])).toEqual([
      ['echo', false, { status: 'ok', output: { echoed: 'disk full' } }],
      ['send', true, { status: 'ok', output: { sent: true } }],
    ]);
    expect(trajectory.tool_steps.map((s) => s.call_id)).toEqual(['call_1_1', 'call_2_1']);
    expect(trajectory.approvals).toEqual([
      expect.objectContaining({ call_id: 'call_2_1', tool: 'send', decision: { kind: 'approve' } }),
    ]);
    expect(trajectory.tools.map((t) => [t.name, t.side_effect])).toEqual([
      ['echo', false],
      ['send', true],
    ]);
    expect(trajectory.events.map((e) => e.type)).toEqual(events.map((e) => e.type));
    expect(trajectory.metadata.final_result.output).toEqual({
      summary: 'Told ops about the disk.',
    });
  });

  it('keeps event types it does not know verbatim, and replay emits them again', async () => {
    const probe = defineTool<{ at: string }>({
      name: 'probe',
      description: 'Probes a host.',
      inputSchema: { type: 'object', properties: { at: { type: 'string' } } },
      sideEffect: false,
      execute: (args, ctx) => {
        ctx.emit({
          type: 'custom',
          name: 'probe_progress',
          message: 'half way',
          data: { pct: 50, at: args.at },
        });
        return Promise.resolve('pong');
      },
    });
    const agent = { ...notifier, toolConfig: { tools: ['probe'] } };
    const { trajectory } = await runRecorded(agent, {
      inputs: { topic: 'x' },
      model: new ScriptedModel([call('probe', { at: 'db1' }), complete]),
      tools: [probe],
    });
    const custom = trajectory.events.find(
      (e) => e.type === 'custom' && e.name === 'probe_progress',
    );
    expect(custom).toMatchObject({ message: 'half way', data: { pct: 50, at: 'db1' }, depth: 0 });
    const replayed: CadreEvent[] = [];
    await replayTrajectory(trajectory, { onEvent: (e) => replayed.push(e) });
    expect(comparableEvents(replayed)).toEqual(comparableEvents(trajectory.events));
  });
});

describe('replaying a recorded run offline (scripted model behaviour)', () => {
  it('yields the same events and the same result, with no model and no tools executed', async () => {
    const recorded = await recordNotifier();
    const real = countingTools();
    const events: CadreEvent[] = [];
    const { result, report } = await replayTrajectory(recorded.trajectory, {
      tools: real.tools,
      onEvent: (e) => events.push(e),
    });
    expect(comparableEvents(events)).toEqual(comparableEvents(recorded.events));
    expect(stable(result)).toEqual(stable(recorded.result));
    expect(result.output).toEqual({ summary: 'Told ops about the disk.' });
    expect(real.echoed).toEqual([]);
    expect(real.sent).toEqual([]);
    expect(report).toMatchObject({
      divergences: [],
      definition_changed: false,
      model_steps: { recorded: 3, replayed: 3, live: 0 },
      tool_steps: { recorded: 2, replayed: 2, live: 0 },
    });
  });

  it('never executes a side-effecting tool, even with live tools on', async () => {
    const recorded = await recordNotifier();
    expect(recorded.sent).toHaveLength(1);
    const real = countingTools();
    const { result, report } = await replayTrajectory(recorded.trajectory, {
      tools: real.tools,
      liveTools: true,
    });
    expect(result.terminate_reason).toBe('GOAL');
    expect(real.sent).toEqual([]);
    expect(report.tool_steps).toMatchObject({ replayed: 1, live: 1 });
  });

  it('re-runs a read-only tool for real under live tools', async () => {
    const recorded = await recordNotifier();
    const real = countingTools();
    const { report } = await replayTrajectory(recorded.trajectory, {
      tools: real.tools,
      liveTools: true,
    });
    expect(real.echoed).toEqual([{ text: 'disk full' }]);
    expect(report.divergences).toEqual([]);
  });

  it('replays recorded delays only when timing is asked for, scaled', async () => {
    const { trajectory } = await runRecorded(noTools, {
      inputs: { topic: 'x' },
      model: new ScriptedModel([{ ...complete, delayMs: 100 }]),
    });
    const recordedMs = Math.max(
      ...trajectory.model_steps.flatMap((s) => s.chunks.map((c) => c.offset_ms)),
    );
    expect(recordedMs).toBeGreaterThanOrEqual(90);
    /** Milliseconds the replay waited, on a clock that moves by exactly what it is asked to wait. */
    const waited = async (timingScale?: number): Promise<number> => {
      let time = 0;
      const clock: Clock = {
        now: () => time,
        sleep: (ms) => {
          time += ms;
          return Promise.resolve();
        },
      };
      await replayTrajectory(trajectory, { clock, ...(timingScale ? { timingScale } : {}) });
      return time;
    };
    expect(await waited()).toBe(0);
    expect(await waited(1)).toBeCloseTo(recordedMs, 6);
    expect(await waited(0.5)).toBeCloseTo(recordedMs / 2, 6);
  });
});
