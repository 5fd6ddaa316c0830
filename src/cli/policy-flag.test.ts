import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';

let dir: string;
const AGENT = [
  '---',
  'name: reader',
  'description: Reads files.',
  'tools: Read',
  '---',
  'You read files.',
  '',
].join('\n');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cadre-policy-flag-'));
  await writeFile(join(dir, 'reader.md'), AGENT);
  await writeFile(join(dir, 'secret.txt'), 'the secret');
  // Scripted model: read the file, then answer with whatever came back.
  await writeFile(
    join(dir, 'turns.json'),
    JSON.stringify([
      { parts: [{ functionCall: { name: 'read_file', args: { path: 'secret.txt' } } }] },
      { parts: [{ text: 'done' }] },
    ]),
  );
  await writeFile(
    join(dir, 'deny-read.yaml'),
    'rules:\n  - tool: read_file\n    decision: deny\n    reason: no reading here\n',
  );
  await writeFile(join(dir, 'broken.yaml'), 'rules:\n  - tool: read_file\n    decision: maybe\n');
});

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCliCaptured(
    [
      'run',
      join(dir, 'reader.md'),
      'Read secret.txt',
      '--model',
      `scripted:${join(dir, 'turns.json')}`,
      '--json',
      '--quiet',
      // The policy files are the project's: trusted for this run.
      '--trust-project',
      ...args,
    ],
    { cwd: dir, env },
  );

describe('cadre run --policy (scripted model)', () => {
  it('a deny rule on a read-only tool keeps the file from being read', async () => {
    const open = await run([]);
    expect(open.code, open.stderr).toBe(0);
    expect((JSON.parse(open.stdout) as { traces: unknown[] }).traces).toHaveLength(1);
    for (const denied of [
      await run(['--policy', 'deny-read.yaml']),
      await run([], { CADRE_POLICY: 'deny-read.yaml' }),
    ]) {
      expect(denied.code, denied.stderr).toBe(0);
      expect((JSON.parse(denied.stdout) as { traces: unknown[] }).traces).toEqual([]);
    }
  });

  it('a broken policy file is a setup error (exit 2) naming file, line and field, before any model call', async () => {
    const result = await run(['--policy', 'broken.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.yaml:3:\d+/);
    expect(result.stderr).toContain('rules.0.decision');
    const missing = await run(['--policy', 'nowhere.yaml']);
    expect(missing.code).toBe(2);
  });

  it.each([
    ['CADRE_TRUST', 'autonomus', 'supervised, delegated, autonomous'],
    ['CADRE_SIDE_EFFECTS', 'of', 'on, off'],
  ])(
    'an unknown %s exits 2 naming the variable and the allowed values',
    async (name, value, allowed) => {
      const result = await run([], { [name]: value });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(name);
      expect(result.stderr).toContain(allowed);
    },
  );
});
