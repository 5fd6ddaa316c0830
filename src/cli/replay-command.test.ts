import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../testing/fake-gemini-server.js';
import { runCliCaptured } from '../testing/run-cli-captured.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const investigator = join(repo, 'examples/agents/codebase-investigator.yaml');
const report = {
  summary: 'guardPath in src/guard.ts returns the path unchanged.',
  relevant_files: [{ path: 'src/guard.ts', reason: 'defines guardPath' }],
  next_steps: ['Add a real check.'],
};

let workspace: string;
let recording: string;
let recordedJson: Record<string, unknown>;

// One recording against the fake Gemini server (scripted responses); the server is closed before any replay.
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'cadre-replay-'));
  await mkdir(join(workspace, 'src'));
  await writeFile(
    join(workspace, 'src/guard.ts'),
    'export function guardPath(p: string) {\n  return p;\n}\n',
  );
  const server = await startFakeGemini({
    turns: [
      { parts: [{ functionCall: { name: 'grep', args: { pattern: 'guardPath' } } }] },
      { parts: [{ functionCall: { name: 'read_file', args: { path: 'src/guard.ts' } } }] },
      { parts: [{ text: 'Done.' }, { functionCall: { name: 'complete_task', args: { report } } }] },
    ],
  });
  recording = join(workspace, 'runs/guard.json');
  const run = await runCliCaptured(
    [
      'run',
      investigator,
      '--input',
      'objective=How are paths guarded?',
      '--workspace',
      workspace,
      '--record',
      recording,
      '--json',
    ],
    { cwd: workspace, env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: server.baseUrl } },
  );
  await server.close();
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toContain('Recorded trajectory: ');
  recordedJson = JSON.parse(run.stdout) as Record<string, unknown>;
});

describe('cadre run --record, then cadre replay (fake Gemini server, scripted responses)', () => {
  it('writes a trajectory with the model steps and the real tool outputs', async () => {
    const trajectory = JSON.parse(await readFile(recording, 'utf8')) as {
      schema_version: number;
      model_steps: unknown[];
      tool_steps: Array<{ tool: string; outcome: { output?: unknown } }>;
      agent: { source?: string };
    };
    expect(trajectory.schema_version).toBe(1);
    expect(trajectory.model_steps).toHaveLength(3);
    expect(trajectory.tool_steps.map((s) => s.tool)).toEqual(['grep', 'read_file']);
    expect(JSON.stringify(trajectory.tool_steps[1]?.outcome)).toContain('return p;');
    expect(trajectory.agent.source).toBe(investigator);
  });

  it('replays with no server and no key, giving the same result', async () => {
    const run = await runCliCaptured(['replay', recording, '--json'], { cwd: workspace, env: {} });
    expect(run.code, run.stderr).toBe(0);
    const { result, replay } = JSON.parse(run.stdout) as {
      result: Record<string, unknown>;
      replay: { divergences: unknown[]; model_steps: { replayed: number } };
    };
    expect(result).toMatchObject({ terminate_reason: 'GOAL', output: report, turns: 3 });
    expect(result.output).toEqual(recordedJson.output);
    expect(replay).toMatchObject({ divergences: [], model_steps: { replayed: 3 } });
  });

  it('prints the answer, progress and a replay summary for a person', async () => {
    const run = await runCliCaptured(['replay', recording], { cwd: workspace, env: {} });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('guardPath in src/guard.ts');
    expect(run.stderr).toContain('→ grep');
    expect(run.stderr).toContain('Replayed 3 of 3 model steps and 2 of 2 tool results');
    expect(run.stderr).toContain('No divergence');
  });

  it('reports an edited prompt as a divergence at model step 1, an error under --strict', async () => {
    const edited = join(workspace, 'edited.yaml');
    const text = await readFile(investigator, 'utf8');
    await writeFile(edited, text.replace('maps unfamiliar code', 'maps any code'));
    const run = await runCliCaptured(['replay', recording, '--agent', edited, '--strict'], {
      cwd: workspace,
      env: {},
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The definition differs from the recorded one.');
    expect(run.stderr).toContain('Model step 1 of 3: the request differs from the recording.');
    expect(run.stderr).toMatch(
      /systemInstruction\n\s+- recorded: .*maps unfamiliar code.*\n\s+\+ replayed: .*maps any code/,
    );
  });

  it('forks with --until: replayed steps, then a scripted live model and real tools', async () => {
    const turns = join(workspace, 'fork.json');
    await writeFile(
      turns,
      JSON.stringify([
        {
          parts: [
            {
              functionCall: {
                name: 'complete_task',
                args: { report: { ...report, summary: 'Forked.' } },
              },
            },
          ],
        },
      ]),
    );
    const run = await runCliCaptured(
      ['replay', recording, '--until', '2', '--model', `scripted:${turns}`, '--json'],
      {
        cwd: workspace,
        env: {},
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const { result, replay } = JSON.parse(run.stdout) as {
      result: { output: { summary: string } };
      replay: unknown;
    };
    expect(result.output.summary).toBe('Forked.');
    expect(replay).toMatchObject({ forked_at: 3, model_steps: { replayed: 2, live: 1 } });
  });

  it('names an unsupported schema_version and the supported ones', async () => {
    const future = join(workspace, 'future.json');
    const trajectory = JSON.parse(await readFile(recording, 'utf8')) as Record<string, unknown>;
    await writeFile(future, JSON.stringify({ ...trajectory, schema_version: 3 }));
    const run = await runCliCaptured(['replay', future], { cwd: workspace, env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `${future} has trajectory schema_version 3, which this Cadre cannot read. Supported: 1`,
    );
  });
});
