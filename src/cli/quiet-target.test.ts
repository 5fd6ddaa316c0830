import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';

/**
 * A project root as `cadre init` leaves it, plus what real projects have
 * beside their agents: a package.json, the policy file, a broken agent.
 */
let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'cadre-quiet-'));
  await mkdir(join(project, 'agents'));
  await writeFile(join(project, 'package.json'), '{"name": "app", "private": true}\n');
  await writeFile(
    join(project, 'policy.yaml'),
    'rules:\n  - tool: write_file\n    decision: deny\n    reason: No writes.\n',
  );
  const helper =
    'name: helper\ndescription: Helps.\npromptConfig:\n  systemPrompt: Help.\ntoolConfig:\n  tools: [read_file]\n';
  await writeFile(join(project, 'agents/helper.yaml'), helper);
  await writeFile(join(project, 'mine.yaml'), helper.replace('helper', 'mine'));
  await writeFile(join(project, 'agents/broken.yaml'), 'name: broken\ndescription: [oops\n');
  await writeFile(
    join(project, 'turns.json'),
    JSON.stringify([{ parts: [{ text: 'Helped.' }] }, { parts: [{ text: 'Helped again.' }] }]),
  );
  await writeFile(join(project, 'rows.jsonl'), '{"input": "hi", "expected": "Helped"}\n');
});
afterAll(() => rm(project, { recursive: true, force: true }));

const cli = (args: string[]) =>
  runCliCaptured(args, { cwd: project, env: { HOME: join(project, 'home') } });
const model = () => ['--model', `scripted:${join(project, 'turns.json')}`];

describe('one file or agent reports itself only (scripted model, real CLI in-process)', () => {
  it('run FILE in a project root: no word about package.json, policy.yaml or a broken neighbour', async () => {
    const run = await cli(['run', 'mine.yaml', 'hi', ...model(), '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Helped.\n');
    expect(run.stderr).toBe('');
  });

  it('run NAME and validate FILE are as quiet', async () => {
    const byName = await cli(['run', 'helper', 'hi', ...model(), '--quiet']);
    expect(byName.code, byName.stderr).toBe(0);
    expect(byName.stderr).toBe('');
    const checked = await cli(['validate', 'agents/helper.yaml']);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toBe('ok agents/helper.yaml (helper)\n1 valid, 0 invalid\n');
    expect(checked.stderr).toBe('');
  });

  it('a broken file, run by path or by name, gives its own error once, nothing else', async () => {
    for (const target of ['agents/broken.yaml', 'broken']) {
      const run = await cli(['run', target, 'hi', ...model()]);
      expect(run.code).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toEqual([
        expect.stringMatching(/^error agents\/broken\.yaml:\d+:\d+ invalid YAML/),
      ]);
    }
  });

  it('validate DIR names the neighbours: a broken agent in ./agents once, as an error there or a warning from .', async () => {
    const agents = await cli(['validate', 'agents']);
    expect(agents.stdout.match(/broken\.yaml/g)).toHaveLength(1);
    expect(agents.stdout).toMatch(/^error agents\/broken\.yaml/m);
    expect(agents.stderr).not.toMatch(/broken/);
    const root = await cli(['validate', '.']);
    expect(root.stderr).toMatch(/^warning skipped agents\/broken\.yaml/m);
  });

  it('eval and replay --agent take an agent name as run does', async () => {
    const evaluated = await cli([
      'eval',
      'helper',
      '--dataset',
      'rows.jsonl',
      ...model(),
      '--json',
    ]);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(evaluated.stderr).not.toMatch(/unsupported file type|skipped/);
    const recorded = await cli([
      'run',
      'helper',
      'hi',
      ...model(),
      '--quiet',
      '--record',
      't.json',
    ]);
    expect(recorded.code, recorded.stderr).toBe(0);
    const replayed = await cli(['replay', 't.json', '--agent', 'helper', '--quiet']);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain('Helped.');
    expect(replayed.stderr).not.toMatch(/skipped|unsupported/);
  });
});
