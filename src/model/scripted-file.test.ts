import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/cadre-error.js';
import { loadScriptedModel } from './scripted-file.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

async function fileWith(value: unknown): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'cadre-script-'));
  await writeFile(join(dir, 'turns.json'), JSON.stringify(value));
  return { dir, file: 'turns.json' };
}

describe('scripted model files (scripted model responses)', () => {
  it('loads the older shapes: a plain list of turns, or {"turns": [...]}', async () => {
    for (const value of [
      [{ parts: [{ text: 'hi' }] }],
      { about: 'notes', turns: [{ parts: [{ text: 'hi' }], usage: { inputTokens: 1 } }] },
    ]) {
      const { dir, file } = await fileWith(value);
      expect(loadScriptedModel(file, dir).provider).toBe('scripted');
    }
  });

  it('loads every script the examples ship', async () => {
    for (const folder of ['examples/scripts', 'examples/evals']) {
      const names = (await readdir(join(repo, folder))).filter((n) => n.endsWith('.json'));
      expect(names.length).toBeGreaterThan(0);
      for (const name of names)
        expect(() => loadScriptedModel(join(folder, name), repo)).not.toThrow();
    }
  });

  it('refuses a bad turn or branch at load, saying where', async () => {
    const cases: Array<[unknown, string]> = [
      [{ nope: 1 }, 'expected a JSON list of turns'],
      [[{ text: 'hi' }], 'turn 1: "parts" must be a list'],
      [[{ parts: [{ txt: 'hi' }] }], 'turn 1: part 1 must be'],
      [
        [{ parts: [], branches: [{ when: { rejected: true }, parts: [] }] }],
        'turn 1: branch 1: "when" has an unknown field "rejected"',
      ],
      [
        [{ parts: [], branches: [{ when: { toolResult: 'denied' }, parts: [] }] }],
        '"toolResult" must be one of ok, error, rejected',
      ],
      [
        [
          { parts: [] },
          { parts: [], branches: [{ when: { sectionIncludes: ['answer'] }, parts: [] }] },
        ],
        'turn 2: branch 1: "sectionIncludes" must be two section names',
      ],
      [
        [{ parts: [], branches: [{ when: {}, parts: [] }] }],
        '"when" must be an object with any of',
      ],
    ];
    for (const [value, message] of cases) {
      const { dir, file } = await fileWith(value);
      let error: unknown;
      try {
        loadScriptedModel(file, dir);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(message);
    }
  });
});
