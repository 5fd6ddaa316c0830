import { describe, expect, it } from 'vitest';
import type { CadreEvent } from '../events/types.js';
import { resolveModelClient } from '../model/resolve-model.js';
import { approveTools } from '../contracts/confirmation.js';
import { startFakeGemini } from '../testing/fake-gemini-server.js';
import { comparableEvents } from './comparable-events.js';
import { replayTrajectory } from './replay.js';
import { runRecorded } from './run-recorded.js';
import { countingTools, notifier } from './testing/test-support.js';

describe('a recording made against the fake Gemini server (scripted responses)', () => {
  it('keeps the retried attempt and replays with no server running', async () => {
    const server = await startFakeGemini({
      failFirst: [{ status: 503 }],
      turns: [
        {
          parts: [
            { text: 'Checking.' },
            { functionCall: { name: 'echo', args: { text: 'disk full' } } },
          ],
        },
        { parts: [{ functionCall: { name: 'send', args: { to: 'ops' } } }] },
        {
          parts: [
            { functionCall: { name: 'complete_task', args: { report: { summary: 'Done.' } } } },
          ],
          usage: { input: 30, output: 5 },
        },
      ],
    });
    const env = { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: server.baseUrl };
    const recordedTools = countingTools();
    const events: CadreEvent[] = [];
    const { result, trajectory } = await runRecorded(notifier, {
      inputs: { topic: 'disks' },
      resolveModel: (name) =>
        resolveModelClient(name, env, { retry: { baseDelayMs: 1, random: () => 0 } }),
      tools: recordedTools.tools,
      confirm: approveTools(['send']),
      onEvent: (e) => events.push(e),
    });
    await server.close();

    expect(result.terminate_reason).toBe('GOAL');
    expect(trajectory.model).toMatchObject({
      name: 'gemini-2.5-flash',
      provider: 'gemini',
      resolved: { 'gemini-2.5-flash': 'gemini-2.5-flash' },
    });
    const first = trajectory.model_steps[0];
    expect(first?.retries).toEqual([
      expect.objectContaining({ attempt: 1, reason: expect.stringMatching(/503/) }),
    ]);
    expect(first?.chunks[0]?.type).toBe('retry');
    // Streamed text arrives in pieces; each piece is kept as it came.
    expect(first?.chunks.filter((c) => c.type === 'text').length).toBeGreaterThan(1);
    expect(trajectory.model_steps[2]?.usage).toMatchObject({ inputTokens: 30, outputTokens: 5 });
    expect(recordedTools.sent).toHaveLength(1);

    const replayTools = countingTools();
    const replayed: CadreEvent[] = [];
    const replay = await replayTrajectory(trajectory, {
      tools: replayTools.tools,
      onEvent: (e) => replayed.push(e),
    });
    expect(replay.report.divergences).toEqual([]);
    expect(replay.result.output).toEqual({ summary: 'Done.' });
    expect(comparableEvents(replayed)).toEqual(comparableEvents(events));
    expect(replayTools.sent).toEqual([]);
  });
});
