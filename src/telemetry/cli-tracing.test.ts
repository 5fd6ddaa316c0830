import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';
import { attribute, receiver, spansOf } from './testing/otlp-receiver.js';

async function project(turns: unknown[]): Promise<{ cwd: string; model: string }> {
  const cwd = await mkdtemp(join(tmpdir(), 'cadre-traced-'));
  await mkdir(join(cwd, 'agents'));
  await writeFile(
    join(cwd, 'agents/lister.md'),
    '---\nname: lister\ndescription: Lists files\ntools: LS\n---\nList files when asked.\n',
  );
  await writeFile(join(cwd, 'turns.json'), JSON.stringify(turns));
  return { cwd, model: 'scripted:turns.json' };
}

const TURNS = [
  { parts: [{ functionCall: { name: 'ls', args: { path: '.' } } }] },
  { parts: [{ text: 'There is an agents folder.' }] },
];

describe('the CLI traces its runs when an OTLP endpoint is set (scripted model responses)', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  async function collector() {
    const found = await receiver();
    closers.push(() => new Promise((resolve) => found.server.close(() => resolve())));
    return found;
  }

  it('cadre run exports its spans before it exits', async () => {
    const { url, exports } = await collector();
    const { cwd, model } = await project(TURNS);
    const run = await runCliCaptured(
      ['run', join(cwd, 'agents/lister.md'), 'list files', '--model', model, '--quiet'],
      { cwd, env: { OTEL_EXPORTER_OTLP_ENDPOINT: url } },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('There is an agents folder.');
    expect(
      spansOf(exports)
        .map((s) => s.name)
        .sort(),
    ).toEqual(['chat turns.json', 'chat turns.json', 'execute_tool ls', 'invoke_agent lister']);
  });

  it('cadre chat traces each turn under the session’s conversation id', async () => {
    const { url, exports } = await collector();
    const { cwd, model } = await project([...TURNS, { parts: [{ text: 'Still there.' }] }]);
    const lines = ['list files', 'again?', '/quit'];
    const run = await runCliCaptured(['chat', 'lister', '--model', model], {
      cwd,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: url },
      ask: () => Promise.resolve(lines.shift() ?? '/quit'),
    });
    expect(run.code).toBe(0);
    const agents = spansOf(exports).filter((s) => s.name === 'invoke_agent lister');
    expect(agents).toHaveLength(2);
    const conversations = agents.map((s) => attribute(s.attributes, 'gen_ai.conversation.id'));
    expect(typeof conversations[0]).toBe('string');
    expect(conversations[1]).toBe(conversations[0]);
  });
});
