import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../model/scripted-model.js';
import { saveTrajectory } from '../trajectory/load-trajectory.js';
import { runRecorded } from '../trajectory/run-recorded.js';
import { loadDataset } from './load-dataset.js';
import { rowInputs } from './row-inputs.js';
import { runEval } from './run-eval.js';
import { exactScorer } from './scorers/exact.js';
import { assistant, tools } from './testing/test-support.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'cadre-eval-'));

describe('JSONL datasets', () => {
  it('reads rows with input or inputs, expected and expected_tool; skips blanks and comments', async () => {
    const file = join(await tempDir(), 'd.jsonl');
    await writeFile(
      file,
      [
        '{"id": "a", "input": "hi", "expected": "hello"}',
        '',
        '// a comment',
        '{"inputs": {"topic": "x"}, "expected_tool": ["ls", "grep"]}',
      ].join('\n'),
    );
    const { kind, rows } = await loadDataset(file);
    expect(kind).toBe('jsonl');
    expect(rows).toEqual([
      { id: 'a', input: 'hi', expected: 'hello', source: `${file}:1` },
      { id: 'row-2', inputs: { topic: 'x' }, expected_tool: ['ls', 'grep'], source: `${file}:4` },
    ]);
  });

  it('reports every bad line at once, with its line number and field', async () => {
    const file = join(await tempDir(), 'bad.jsonl');
    await writeFile(
      file,
      [
        '{"id": "a"}',
        'not json',
        '{"id": "b", "input": "x", "inputs": {}}',
        '{"id": "c", "input": 3}',
        '{"id": true, "inputs": [], "expected_tool": [1]}',
        '[]',
      ].join('\n'),
    );
    const error = await loadDataset(file).then(
      () => new Error('expected a failure'),
      (e: Error) => e,
    );
    expect(error.message.split('\n')).toEqual([
      `${file}:1 give exactly one of "input" (text) or "inputs" (an object)`,
      expect.stringMatching(new RegExp(`^${file}:2 not valid JSON`)),
      `${file}:3 give exactly one of "input" (text) or "inputs" (an object)`,
      `${file}:4 input: expected a string (use "inputs" for an object)`,
      `${file}:5 id: expected a string`,
      `${file}:5 inputs: expected an object`,
      `${file}:5 expected_tool: expected a tool name or a list of names`,
      `${file}:6 expected a JSON object`,
    ]);
  });

  it("maps a text input to the agent's only input, and refuses to guess among several", () => {
    const row = { id: 'r', input: 'hello', source: 's' };
    expect(rowInputs(assistant, row)).toEqual({ prompt: 'hello' });
    const two = {
      ...assistant,
      inputConfig: { inputs: { a: { type: 'string' }, b: { type: 'string' } } },
    };
    expect(() => rowInputs(two, row)).toThrow('assistant takes several inputs (a, b)');
  });
});

describe('a folder of trajectories as a regression set (scripted model behaviour)', () => {
  it('turns recorded inputs into rows expecting the recorded output, skipping failed runs and bad files', async () => {
    const dir = await tempDir();
    const record = async (name: string, text: string | undefined) => {
      const { trajectory } = await runRecorded(assistant, {
        inputs: { prompt: name },
        tools,
        model: new ScriptedModel(text === undefined ? [] : [{ parts: [{ text }] }]),
      });
      await saveTrajectory(join(dir, `${name}.json`), trajectory);
    };
    await record('b-greeting', 'Hello!');
    await record('a-farewell', 'Bye!');
    await record('c-broken', undefined);
    await writeFile(join(dir, 'd-future.json'), '{"schema_version": 5}');
    const dataset = await loadDataset(dir);
    expect(dataset.kind).toBe('trajectories');
    expect(dataset.agents).toEqual(['assistant']);
    expect(dataset.rows.map((r) => [r.id, r.inputs, r.expected])).toEqual([
      ['a-farewell', { prompt: 'a-farewell' }, 'Bye!'],
      ['b-greeting', { prompt: 'b-greeting' }, 'Hello!'],
    ]);
    expect(dataset.warnings).toEqual([
      `skipped ${join(dir, 'c-broken.json')}: the recorded run ended ERROR`,
      expect.stringContaining('schema_version 5, which this Cadre cannot read'),
    ]);

    // Today's agent still says "Hello!" but no longer "Bye!": one regression.
    const today = (text: string) => () => new ScriptedModel([{ parts: [{ text }] }]);
    const report = await runEval(assistant, dataset.rows, {
      scorers: [exactScorer()],
      run: { tools },
      model: today('Hello!'),
    });
    expect(report.summary.scorers.exact).toMatchObject({ mean: 0.5, passed: 1 });
  });
});
