import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';

describe('cadre run says when nothing confines the shell (scripted model)', () => {
  it('warns at start-up for an agent with a shell, and not for one without', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-notice-'));
    await writeFile(join(dir, 'turns.json'), JSON.stringify([{ parts: [{ text: 'ok' }] }]));
    const agent = async (name: string, tools: string) => {
      const file = join(dir, `${name}.yaml`);
      await writeFile(file, `name: ${name}\ndescription: Test\ntoolConfig:\n  tools: [${tools}]\n`);
      return file;
    };
    const run = async (file: string) =>
      runCliCaptured(['run', file, 'hi', '--model', `scripted:${join(dir, 'turns.json')}`], {
        cwd: dir,
        env: { HOME: `${dir}-home`, CADRE_SANDBOX: 'off' },
      });
    const withShell = await run(await agent('sheller', 'shell, read_file'));
    expect(withShell.code).toBe(0);
    expect(withShell.stderr).toMatch(
      /no sandbox for shell commands \(turned off by CADRE_SANDBOX=off\): every shell call asks a person/,
    );
    const without = await run(await agent('reader', 'read_file'));
    expect(without.stderr).not.toMatch(/no sandbox/);
  });
});
