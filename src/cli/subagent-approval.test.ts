import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';

let workspace: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'cadre-subagent-ask-'));
  await writeFile(
    join(workspace, 'writer.yaml'),
    'name: writer\ndescription: Writes notes\npromptConfig:\n  systemPrompt: Write what you are told.\ntoolConfig:\n  tools: [write_file]\n',
  );
  await writeFile(
    join(workspace, 'assistant.yaml'),
    'name: assistant\ndescription: Delegates\npromptConfig:\n  systemPrompt: Ask the writer.\ntoolConfig:\n  tools: [writer]\n',
  );
});

/** The root asks the writer, the writer writes, each reports: one model file, in call order. */
async function scripted(name: string, reply: string): Promise<string> {
  const file = join(workspace, `${name}.json`);
  const turns = [
    { parts: [{ functionCall: { name: 'writer', args: { prompt: 'write a note' } } }] },
    {
      parts: [
        { functionCall: { name: 'write_file', args: { path: `${name}.txt`, content: 'hi' } } },
      ],
    },
    { parts: [{ text: reply }] },
    { parts: [{ text: 'The writer reported back.' }] },
  ];
  await writeFile(file, JSON.stringify(turns));
  return `scripted:${file}`;
}

describe('cadre run: a subagent’s side effect asks on the terminal (scripted model file)', () => {
  it('names the path, and "y" runs the child’s call once', async () => {
    const questions: string[] = [];
    const run = await runCliCaptured(
      [
        'run',
        join(workspace, 'assistant.yaml'),
        'go',
        '--model',
        await scripted('yes', 'Written.'),
        '--workspace',
        workspace,
      ],
      { cwd: workspace, ask: (q) => (questions.push(q), Promise.resolve('y')) },
    );
    expect(run.code).toBe(0);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatch(
      /Allow assistant › writer › write_file: Write 2 bytes to yes\.txt\?/,
    );
    expect(await readFile(join(workspace, 'yes.txt'), 'utf8')).toBe('hi');
  });

  it('"n" with feedback reaches the writer, not the root', async () => {
    const answers = ['n', 'wrong folder'];
    const run = await runCliCaptured(
      [
        'run',
        join(workspace, 'assistant.yaml'),
        'go',
        '--model',
        await scripted('no', 'Not written.'),
        '--workspace',
        workspace,
      ],
      { cwd: workspace, ask: () => Promise.resolve(answers.shift() ?? '') },
    );
    expect(run.code).toBe(0);
    await expect(readFile(join(workspace, 'no.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(run.stderr).toMatch(/write_file failed: The user rejected .*wrong folder/);
    expect(run.stderr).not.toMatch(/writer failed/);
  });

  it('cadre chat: the writer’s call is asked on the terminal with its path, then the chat goes on', async () => {
    await mkdir(join(workspace, 'agents'), { recursive: true });
    await writeFile(
      join(workspace, 'agents', 'writer.yaml'),
      await readFile(join(workspace, 'writer.yaml'), 'utf8'),
    );
    await writeFile(
      join(workspace, 'agents', 'assistant.yaml'),
      await readFile(join(workspace, 'assistant.yaml'), 'utf8'),
    );
    const model = await scripted('chat', 'Written.');
    const questions: string[] = [];
    const lines = ['write a note', 'y', '/quit'];
    const run = await runCliCaptured(['chat', 'assistant', '--model', model], {
      cwd: workspace,
      ask: (q) => (questions.push(q), Promise.resolve(lines.shift() ?? '/quit')),
    });
    expect(run.code).toBe(0);
    expect(questions.filter((q) => q.includes('Allow'))).toEqual([
      expect.stringMatching(/Allow assistant › writer › write_file: Write 2 bytes to chat\.txt\?/),
    ]);
    expect(await readFile(join(workspace, 'chat.txt'), 'utf8')).toBe('hi');
    expect(run.stdout).toContain('The writer reported back.');
  });
});
