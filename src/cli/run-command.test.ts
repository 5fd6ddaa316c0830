import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../testing/fake-gemini-server.js';
import type { FakeServer, FakeTurn } from '../testing/fake-turn.js';
import { runCliCaptured } from '../testing/run-cli-captured.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const investigator = join(repo, 'examples/agents/codebase-investigator.yaml');

let workspace: string;
let server: FakeServer | undefined;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'cadre-cli-'));
  await mkdir(join(workspace, 'src'));
  await writeFile(join(workspace, 'README.md'), '# Demo\nA tiny project.\n');
  await writeFile(
    join(workspace, 'src/guard.ts'),
    'export function guardPath(p: string) {\n  return p;\n}\n',
  );
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const call = (name: string, args: Record<string, unknown>): FakeTurn => ({
  parts: [{ functionCall: { name, args } }],
});

async function gemini(turns: FakeTurn[]) {
  server = await startFakeGemini({ turns });
  return { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: server.baseUrl };
}

describe('cadre run (fake Gemini server, scripted responses)', () => {
  it('runs the codebase investigator end to end through the real Gemini SDK', async () => {
    const report = {
      summary: 'guardPath in src/guard.ts returns the path unchanged.',
      relevant_files: [
        { path: 'src/guard.ts', reason: 'defines guardPath', key_symbols: ['guardPath'] },
      ],
      next_steps: ['Add a real check.'],
    };
    const env = await gemini([
      {
        parts: [
          { thought: 'Start with the layout.' },
          { functionCall: { name: 'ls', args: { path: '.' } } },
        ],
        usage: { input: 100, output: 10, thoughts: 5 },
      },
      call('grep', { pattern: 'guardPath' }),
      call('read_file', { path: 'src/guard.ts' }),
      { parts: [{ text: 'Done.' }, { functionCall: { name: 'complete_task', args: { report } } }] },
    ]);
    const run = await runCliCaptured(
      [
        'run',
        investigator,
        '--input',
        'objective=How are paths guarded?',
        '--workspace',
        workspace,
        '--json',
      ],
      { cwd: repo, env },
    );
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ terminate_reason: 'GOAL', output: report, turns: 4 });
    expect((result.traces as Array<{ tool: string }>).map((t) => t.tool)).toEqual([
      'ls',
      'grep',
      'read_file',
    ]);
    expect((result.usage as { thoughtTokens: number }).thoughtTokens).toBe(5);

    const requests = server?.requests ?? [];
    expect(requests).toHaveLength(4);
    const first = requests[0]?.body as {
      contents: Array<{ parts: Array<{ text?: string }> }>;
      systemInstruction: { parts: Array<{ text: string }> };
      generationConfig: { temperature: number; thinkingConfig: { thinkingBudget: number } };
      tools: Array<{ functionDeclarations: Array<{ name: string }> }>;
    };
    expect(requests[0]?.path).toMatch(/gemini-2\.5-flash:streamGenerateContent$/);
    expect(first.contents[0]?.parts[0]?.text).toContain('How are paths guarded?');
    expect(first.systemInstruction.parts[0]?.text).toContain('Codebase Investigator');
    expect(first.generationConfig.temperature).toBe(0.1);
    expect(first.generationConfig.thinkingConfig.thinkingBudget).toBe(-1);
    expect(first.tools[0]?.functionDeclarations.map((d) => d.name).sort()).toEqual([
      'complete_task',
      'glob',
      'grep',
      'ls',
      'read_file',
    ]);
    // The tools really ran in the workspace: their output went back to the model.
    expect(JSON.stringify(requests[1]?.body)).toContain('README.md');
    expect(JSON.stringify(requests[2]?.body)).toContain('guard.ts');
    expect(JSON.stringify(requests[3]?.body)).toContain('return p;');
  });

  it('prints progress on stderr and the answer on stdout', async () => {
    const env = await gemini([
      call('ls', { path: 'src' }),
      { parts: [{ text: 'There is one file.' }] },
    ]);
    const agent = join(workspace, 'lister.md');
    await writeFile(
      agent,
      '---\nname: lister\ndescription: Lists files\ntools: LS\n---\nList what you are asked to.\n',
    );
    const run = await runCliCaptured(
      ['run', agent, 'What', 'is', 'in', 'src?', '--workspace', workspace],
      { cwd: workspace, env },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('There is one file.\n');
    expect(run.stderr).toMatch(/Turn 1/);
    expect(run.stderr).toMatch(/→ ls \{path: "src"\}/);
    expect(run.stderr).toMatch(/■ GOAL/);
    expect(JSON.stringify(server?.requests[0]?.body)).toContain('What is in src?');
  });

  it('exits 2 naming GEMINI_API_KEY, OPENAI_BASE_URL and --model when no model is reachable', async () => {
    const run = await runCliCaptured(['run', investigator, '--input', 'objective=x'], {
      cwd: repo,
      env: {},
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('GEMINI_API_KEY');
    expect(run.stderr).toContain('OPENAI_BASE_URL');
    expect(run.stderr).toContain('--model');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 on a missing input without calling the model', async () => {
    const env = await gemini([]);
    const run = await runCliCaptured(['run', investigator], { cwd: repo, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/inputs\.objective: is required/);
    expect(server?.requests).toHaveLength(0);
  });

  it('exits 1 on a bad definition, naming file, line and field, without calling the model', async () => {
    const env = await gemini([]);
    const bad = join(workspace, 'bad.yaml');
    await writeFile(
      bad,
      'name: bad\ndescription: Broken\npromptConfig:\n  systemPrompt: hi\ntoolConfig:\n  tools: [read_fil]\nrunConfig:\n  max_turns: ten\n',
    );
    const run = await runCliCaptured(['run', bad, 'hello'], { cwd: workspace, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /bad\.yaml:8:\d+ runConfig\.max_turns: expected a positive integer, got "ten"/,
    );
    expect(run.stderr).toMatch(/bad\.yaml:6:\d+ toolConfig\.tools\.0: .*read_file/);
    expect(server?.requests).toHaveLength(0);
  });
});

describe('cadre run with a scripted model file (canned answers, real tools)', () => {
  async function scripted(turns: unknown[]): Promise<string> {
    const file = join(workspace, 'turns.json');
    await writeFile(file, JSON.stringify(turns));
    return `scripted:${file}`;
  }

  const writer = async (): Promise<string> => {
    const agent = join(workspace, 'writer.yaml');
    await writeFile(
      agent,
      'name: writer\ndescription: Writes notes\npromptConfig:\n  systemPrompt: Write what you are told.\ntoolConfig:\n  tools: [write_file]\n',
    );
    return agent;
  };

  it('without a terminal or --approve, a side effect is not run, the model is told no one could approve it (not that a person said no), and the run exits 3 saying how to approve', async () => {
    const model = await scripted([
      {
        parts: [
          { functionCall: { name: 'write_file', args: { path: 'note.txt', content: 'hi' } } },
        ],
      },
      // The scripted model reads a call no one could approve as not run, like a rejection.
      {
        parts: [{ text: 'It ran?' }],
        branches: [
          { when: { toolResult: 'rejected' }, parts: [{ text: 'I could not write it.' }] },
        ],
      },
    ]);
    const run = await runCliCaptured(
      ['run', await writer(), 'write a note', '--model', model, '--workspace', workspace],
      { cwd: workspace },
    );
    await expect(readFile(join(workspace, 'note.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
    // The run reached its goal, yet what it was asked is not done: never exit 0.
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('I could not write it.\n');
    expect(run.stderr).toMatch(/write_file failed: Not run: no one could approve this call/);
    expect(run.stderr).not.toMatch(/user rejected/i);
    expect(run.stderr).toMatch(/--approve write_file \(or --approve all\)/);
    expect(run.stderr).toMatch(/\{tool: write_file, decision: allow/);
  });

  it('runs an approved side effect exactly once', async () => {
    const model = await scripted([
      {
        parts: [
          { functionCall: { name: 'write_file', args: { path: 'note.txt', content: 'hi' } } },
        ],
      },
      { parts: [{ text: 'Written.' }] },
    ]);
    const run = await runCliCaptured(
      [
        'run',
        await writer(),
        'write a note',
        '--model',
        model,
        '--workspace',
        workspace,
        '--approve',
        'write_file',
      ],
      { cwd: workspace },
    );
    expect(run.code).toBe(0);
    expect(await readFile(join(workspace, 'note.txt'), 'utf8')).toBe('hi');
  });

  it('asks on a terminal; "n" with feedback reaches the model', async () => {
    const model = await scripted([
      {
        parts: [
          { functionCall: { name: 'write_file', args: { path: 'note.txt', content: 'hi' } } },
        ],
      },
      { parts: [{ text: 'OK, not writing.' }] },
    ]);
    const answers = ['n', 'wrong folder'];
    const questions: string[] = [];
    const run = await runCliCaptured(
      ['run', await writer(), 'write', '--model', model, '--workspace', workspace, '--json'],
      {
        cwd: workspace,
        ask: (q) => {
          questions.push(q);
          return Promise.resolve(answers.shift() ?? '');
        },
      },
    );
    expect(questions[0]).toMatch(/Allow Write 2 bytes to note\.txt\?/);
    expect(run.code).toBe(0);
    await expect(readFile(join(workspace, 'note.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('the first Ctrl-C cancels, prints what was done and exits 130', async () => {
    const model = await scripted([
      { parts: [{ functionCall: { name: 'ls', args: { path: '.' } } }] },
      { parts: [{ functionCall: { name: 'ls', args: { path: 'src' } } }], delayMs: 5000 },
    ]);
    const agent = join(workspace, 'slow.md');
    await writeFile(agent, '---\nname: slow\ndescription: Slow\ntools: LS\n---\nList.\n');
    let interrupt: () => void = () => {};
    // Ctrl-C once the second turn has started: its model call is in flight.
    let progress = '';
    let secondTurn: () => void = () => {};
    const inSecondTurn = new Promise<void>((resolve) => (secondTurn = resolve));
    const pending = runCliCaptured(
      ['run', agent, 'go', '--model', model, '--workspace', workspace],
      {
        cwd: workspace,
        onInterrupt: (handler) => {
          interrupt = handler;
          return () => {};
        },
        onStderr: (text) => {
          progress += text;
          if (progress.match(/Turn \d+/g)?.length === 2) secondTurn();
        },
      },
    );
    await inSecondTurn;
    interrupt();
    const run = await pending;
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/Stopped: ABORTED after 2 turn\(s\), 1 tool call\(s\)/);
    expect(run.stderr).toMatch(/- ls/);
    expect(run.stdout).toBe('');
  });

  it('a failed run (scripted model runs out of turns) says why on stderr, nothing on stdout, and exits 1', async () => {
    const model = await scripted([
      { parts: [{ functionCall: { name: 'ls', args: { path: '.' } } }] },
    ]);
    const agent = join(workspace, 'short.md');
    await writeFile(agent, '---\nname: short\ndescription: Short\ntools: LS\n---\nList.\n');
    const run = await runCliCaptured(
      ['run', agent, 'go', '--model', model, '--workspace', workspace, '--quiet'],
      { cwd: workspace },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error .+/m);
    expect(run.stderr).toMatch(/Stopped: ERROR after \d+ turn\(s\), 1 tool call\(s\)/);
    // -p runs the default agent through the same path; --json keeps the result object on stdout.
    const shorthand = await runCliCaptured(
      ['-p', 'go', '--model', model, '--workspace', workspace, '--quiet'],
      { cwd: workspace, env: { HOME: workspace } },
    );
    expect(shorthand.code).toBe(1);
    expect(shorthand.stdout).toBe('');
    expect(shorthand.stderr).toMatch(/Stopped: ERROR/);
    const json = await runCliCaptured(
      ['run', agent, 'go', '--model', model, '--workspace', workspace, '--json'],
      { cwd: workspace },
    );
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ terminate_reason: 'ERROR' });
  });
});
