import { describe, expect, it } from 'vitest';
import { defineTool } from '../tools/types.js';
import { describeDivergence } from './replay-log.js';
import { replayTrajectory } from './replay.js';
import { notifier, recordNotifier } from './testing/test-support.js';

const changedPrompt = {
  ...notifier,
  promptConfig: { ...notifier.promptConfig, systemPrompt: 'You alert people about ${topic}.' },
};

describe('replay divergence (recorded with scripted model behaviour)', () => {
  it('reports a changed prompt at model step 1 with a readable diff, and goes on when not strict', async () => {
    const { trajectory } = await recordNotifier();
    const { result, report } = await replayTrajectory(trajectory, { definition: changedPrompt });
    expect(report.definition_changed).toBe(true);
    const first = report.divergences[0];
    expect(first).toMatchObject({ kind: 'model_request', step: 1 });
    if (first?.kind !== 'model_request') throw new Error('expected a request divergence');
    expect(first.diff.map((d) => d.path)).toEqual(['systemInstruction']);
    expect(first.recorded_hash).not.toBe(first.replayed_hash);
    const text = describeDivergence(first);
    expect(text).toContain('Model step 1 of 3');
    expect(text).toContain('- recorded: "You notify people about disks.');
    expect(text).toContain('+ replayed: "You alert people about disks.');
    // Every later request carries the same system prompt, so each step diverges too.
    expect(report.divergences.map((d) => d.kind === 'model_request' && d.step)).toEqual([1, 2, 3]);
    expect(result.terminate_reason).toBe('GOAL');
  });

  it('finds the divergence at the step a different tool output first reaches the model', async () => {
    const { trajectory } = await recordNotifier();
    const louder = defineTool<{ text: string }>({
      name: 'echo',
      description: 'Echo the text back.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      sideEffect: false,
      execute: (args) => Promise.resolve({ echoed: args.text.toUpperCase() }),
    });
    const { report } = await replayTrajectory(trajectory, { tools: [louder], liveTools: true });
    const first = report.divergences[0];
    expect(first).toMatchObject({ kind: 'model_request', step: 2 });
    if (first?.kind !== 'model_request') throw new Error('expected a request divergence');
    expect(first.diff).toEqual([
      {
        path: 'messages[2].parts[0].response.output.echoed',
        recorded: '"disk full"',
        replayed: '"DISK FULL"',
      },
    ]);
  });

  it('makes the first divergence an error under strict', async () => {
    const { trajectory } = await recordNotifier();
    const { result, report } = await replayTrajectory(trajectory, {
      definition: changedPrompt,
      strict: true,
    });
    expect(result.terminate_reason).toBe('ERROR');
    expect(result.error?.message).toMatch(/^Replay diverged: Model step 1 of 3/);
    expect(report.divergences).toHaveLength(1);
    expect(report.model_steps.replayed).toBe(0);
  });

  it('reports an agent that wants more model steps than were recorded', async () => {
    const { trajectory } = await recordNotifier();
    const short = { ...trajectory, model_steps: trajectory.model_steps.slice(0, 2) };
    const { result, report } = await replayTrajectory(short);
    expect(report.divergences).toEqual([
      expect.objectContaining({ kind: 'model_exhausted', step: 3 }),
    ]);
    expect(result.terminate_reason).toBe('ERROR');
  });

  it('reports a tool call that has no recorded result', async () => {
    const { trajectory } = await recordNotifier();
    const { report } = await replayTrajectory({
      ...trajectory,
      tool_steps: trajectory.tool_steps.slice(1),
    });
    expect(report.divergences[0]).toMatchObject({ kind: 'tool_unrecorded', tool: 'echo' });
    expect(report.divergences[0]?.message).toContain('{"text":"disk full"}');
  });
});
