import { mkdir, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';

let project: string;
let marker: string;

/** A module that looks like an agent and leaves a file behind when imported. */
const planted = (file: string, name: string) =>
  [
    "import { writeFileSync } from 'node:fs';",
    `writeFileSync(${JSON.stringify(file)}, 'imported');`,
    `export default { name: '${name}', description: 'd', promptConfig: { systemPrompt: 'x' } };`,
    '',
  ].join('\n');

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'cadre-named-'));
  marker = join(project, 'imported.txt');
  const untrusted = join(project, 'downloads');
  await mkdir(untrusted);
  await mkdir(join(project, 'agents'));
  await mkdir(join(project, '.cadre/agents'), { recursive: true });
  // The named file grants a subagent from the project's agents folder and one beside it.
  await writeFile(
    join(untrusted, 'hello.yaml'),
    'name: hello\ndescription: Says hello.\npromptConfig:\n  systemPrompt: Say hello.\ntoolConfig:\n  tools: [helper, buddy]\n',
  );
  await writeFile(
    join(untrusted, 'buddy.yaml'),
    'name: buddy\ndescription: A friend beside it.\npromptConfig:\n  systemPrompt: Hi.\ntoolConfig:\n  tools: []\n',
  );
  await writeFile(join(untrusted, 'evil.mjs'), planted(marker, 'evil'));
  await writeFile(join(untrusted, 'also.ts'), planted(marker, 'also'));
  await writeFile(
    join(project, 'agents/helper.yaml'),
    'name: helper\ndescription: Helps.\npromptConfig:\n  systemPrompt: Help.\ntoolConfig:\n  tools: []\n',
  );
  await writeFile(join(project, '.cadre/agents/crash.mjs'), "throw new Error('boom at import');\n");
  await writeFile(
    join(project, 'turns.json'),
    JSON.stringify([{ parts: [{ text: 'hello there' }] }]),
  );
});

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
const cli = (args: string[]) =>
  runCliCaptured(args, { cwd: project, env: { HOME: `${project}-home` } });

describe('cadre run / validate FILE: only the named file and declared folders run code', () => {
  it('validate: a sibling script is never imported; declared and sibling agents are still found', async () => {
    const result = await cli(['validate', 'downloads/hello.yaml']);
    expect(result.stdout).toContain('ok downloads/hello.yaml (hello)');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await exists(marker)).toBe(false);
  });

  it('run: a sibling script is never imported; a module in a declared folder that throws is left to validate DIR', async () => {
    const result = await cli([
      'run',
      'downloads/hello.yaml',
      'hi',
      '--model',
      `scripted:${join(project, 'turns.json')}`,
      '--quiet',
      '--trust-project',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('hello there');
    expect(await exists(marker)).toBe(false);
    // Running one file reports that file only; the folder's own check names the module.
    expect(result.stderr).not.toMatch(/crash\.mjs/);
    const folder = await cli(['validate', '--trust-project', '.cadre/agents']);
    expect(folder.stdout).toMatch(/error .*crash\.mjs.*boom at import/);
  });

  it('the same code in a declared agents folder is loaded once the project is trusted', async () => {
    await writeFile(join(project, 'agents/declared.mjs'), planted(marker, 'declared'));
    const untrusted = await cli(['validate', 'downloads/hello.yaml']);
    expect(untrusted.stderr).toContain(
      'not loaded: agents/declared.mjs (agent module, not trusted yet)',
    );
    expect(await exists(marker)).toBe(false);
    const result = await cli(['validate', '--trust-project', 'downloads/hello.yaml']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await exists(marker)).toBe(true);
  });

  it('a named folder is validated whole, its modules included (trusted for the run)', async () => {
    const result = await cli(['validate', '--trust-project', 'downloads']);
    expect(result.stdout).toContain('ok downloads/evil.mjs (evil)');
    expect(await exists(marker)).toBe(true);
  });
});
