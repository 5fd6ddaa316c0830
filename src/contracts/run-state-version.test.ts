import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/cadre-error.js';
import { resume } from '../runtime/run-verbs.js';
import type { RunState } from './run-state.js';
import { readRunState, RUN_STATE_VERSION, type RunStateUpgrade } from './run-state-version.js';

const stored = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  version: RUN_STATE_VERSION,
  runId: 'run-1',
  agent: 'writer',
  model: 'scripted',
  messages: [],
  turns: 1,
  activeMs: 5,
  startedAt: '2026-11-22T10:00:00.000Z',
  emittedVars: {},
  traces: [],
  usage: { inputTokens: 0, outputTokens: 0, thoughtTokens: 0, totalTokens: 0 },
  alwaysApproved: [],
  nudged: false,
  status: 'paused',
  ...fields,
});

describe('readRunState', () => {
  it('takes a state of the current version as it is', async () => {
    const state = stored();
    expect(await readRunState(state)).toBe(state);
  });

  it('refuses a state from a newer Cadre, saying which version and what to do', async () => {
    const newer = stored({ version: RUN_STATE_VERSION + 1 });
    await expect(readRunState(newer)).rejects.toThrow(ConfigError);
    await expect(readRunState(newer)).rejects.toThrow(
      `Run run-1 was stored by a newer Cadre (run state version ${RUN_STATE_VERSION + 1}); this one reads versions up to ${RUN_STATE_VERSION}. Upgrade Cadre to resume it.`,
    );
  });

  it('refuses what has no valid version, or is no object', async () => {
    for (const version of [undefined, 0, 1.5, '1', null])
      await expect(readRunState(stored({ version }))).rejects.toThrow(/has no valid version/);
    await expect(readRunState('{"version":1}')).rejects.toThrow(/must be an object/);
    await expect(readRunState(null)).rejects.toThrow(/must be an object/);
  });

  it('upgrades an older version step by step, each step seeing the one before', async () => {
    const seen: number[] = [];
    const upgrades: Record<number, RunStateUpgrade> = {
      1: (s) => (seen.push(s['version'] as number), { ...s, renamed: s['nudged'] }),
      2: (s) => (seen.push(s['version'] as number), { ...s, twice: s['renamed'] }),
    };
    const upgraded = await readRunState(stored({ version: 1, nudged: true }), upgrades, 3);
    expect(seen).toEqual([1, 2]);
    expect(upgraded).toMatchObject({ version: 3, renamed: true, twice: true });
    // A version with no step up cannot be read.
    await expect(readRunState(stored({ version: 1 }), { 2: upgrades[2]! }, 3)).rejects.toThrow(
      'No upgrade from run state version 1 to 2.',
    );
  });

  it('guards resume: a state from a newer Cadre is refused before anything runs', async () => {
    const newer = stored({ version: RUN_STATE_VERSION + 1 }) as unknown as RunState;
    const writer = {
      name: 'writer',
      description: 'w',
      promptConfig: { systemPrompt: 'Write.' },
      toolConfig: { tools: [] },
    };
    await expect(resume(writer, newer, {})).rejects.toThrow(/stored by a newer Cadre/);
  });
});
