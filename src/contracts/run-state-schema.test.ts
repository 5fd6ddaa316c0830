import { readFile, readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { StoredDataError } from '../errors/stored-data-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { resume } from '../runtime/run-verbs.js';
import type { RunState } from './run-state.js';
import { readRunState, RUN_STATE_VERSION } from './run-state-version.js';

const FIXTURES = new URL('./run-state-fixtures/', import.meta.url);

/** Every stored fixture's state, by file name. */
async function fixtureStates(): Promise<Array<[string, Record<string, unknown>]>> {
  const names = (await readdir(FIXTURES)).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (name): Promise<[string, Record<string, unknown>]> => {
      const file = JSON.parse(await readFile(new URL(name, FIXTURES), 'utf8')) as {
        state: Record<string, unknown>;
      };
      return [name, file.state];
    }),
  );
}

/** A deep copy of a fixture's state with one change, as a damaged row would hold it. */
async function damaged(change: (state: Record<string, unknown>) => void): Promise<unknown> {
  const [, state] = (await fixtureStates())[0]!;
  const copy = structuredClone(state);
  change(copy);
  return copy;
}

describe('stored run states are parsed by a schema on load', () => {
  it('every version the upgrade code knows has a fixture, and each loads and upgrades', async () => {
    const states = await fixtureStates();
    for (let version = 1; version <= RUN_STATE_VERSION; version++)
      expect(states.filter(([, s]) => s['version'] === version).length).toBeGreaterThan(0);
    for (const [name, state] of states) {
      const read = await readRunState(state);
      expect(read.version, name).toBe(RUN_STATE_VERSION);
      expect(read.runId, name).toBe(state['runId']);
    }
  });

  it('a fixture with a nested paused child is checked down to the child’s own state', async () => {
    const [, withChild] = (await fixtureStates()).find(([name]) => name.includes('subagent'))!;
    const copy = structuredClone(withChild) as unknown as RunState;
    const child = Object.values(copy.pendingTurn?.children ?? {})[0];
    expect(child).toBeDefined();
    (child!.state as unknown as Record<string, unknown>)['turns'] = 'three';
    const refused = await readRunState(copy).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoredDataError);
    expect((refused as StoredDataError).message).toMatch(
      /^The stored run state of run .+ is not valid: pendingTurn\.children\.[^.]+\.state\.turns: /,
    );
  });

  it('refuses a damaged state naming the field, as a ValidationError', async () => {
    const cases: Array<[(s: Record<string, unknown>) => void, RegExp]> = [
      [(s) => delete s['messages'], /: messages: /],
      [(s) => (s['status'] = 'sleeping'), /: status: /],
      [
        (s) => ((s['messages'] as Array<{ role: string }>)[0]!.role = 'system'),
        /: messages\.0\.role: /,
      ],
      [
        (s) => ((s['usage'] as Record<string, unknown>)['inputTokens'] = '120'),
        /: usage\.inputTokens: /,
      ],
      [
        (s) =>
          ((s['messages'] as Array<{ parts: unknown[] }>)[1]!.parts[1] = {
            kind: 'function_call',
            name: 'x',
          }),
        /: messages\.1\.parts\.1\.(id|args)/,
      ],
    ];
    for (const [change, field] of cases) {
      const error = await readRunState(await damaged(change)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoredDataError);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as StoredDataError).code).toBe('validation_error');
      expect((error as Error).message).toMatch(field);
    }
  });

  it('keeps fields it does not know (an optional field added later passes through)', async () => {
    const state = await damaged((s) => (s['addedLater'] = { kept: true }));
    expect(await readRunState(state)).toMatchObject({ addedLater: { kept: true } });
  });

  it('resume refuses a damaged state before anything runs', async () => {
    const state = (await damaged((s) => (s['traces'] = 'none'))) as RunState;
    const writer = {
      name: 'writer',
      description: 'w',
      promptConfig: { systemPrompt: 'Write.' },
      toolConfig: { tools: [] },
    };
    await expect(resume(writer, state, {})).rejects.toThrow(/is not valid: traces: /);
  });
});
