import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../testing/run-cli-captured.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The README's eval demo: the investigator's model is scripted, its tools really run on this repository.
const demo = [
  'eval',
  'examples/agents/codebase-investigator.yaml',
  '--dataset',
  'examples/evals/investigator.jsonl',
  '--model',
  'scripted:examples/scripts/investigator-turns.json',
];

interface JsonReport {
  summary: {
    runs: number;
    scorers: Record<
      string,
      { mean: number | null; passed: number; scored: number; errors: number }
    >;
  };
  results: Array<{
    row_id: string;
    scores: Record<string, { status: string; score?: number; label?: string }>;
  }>;
  gate?: { passed: boolean; failing: string[] };
  interrupted: boolean;
}

describe('cadre eval (scripted model behaviour)', () => {
  it('scores the shipped dataset: contains and tool_called by default, with a summary table', async () => {
    const run = await runCliCaptured(demo, { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'Eval of codebase_investigator on examples/evals/investigator.jsonl: 4 of 4 runs finished, 0 failed to answer',
    );
    expect(run.stdout).toMatch(/contains\s+0\.750\s+75% \(3\/4\)\s+4\s+0\s+0/);
    expect(run.stdout).toMatch(/tool_called\s+0\.500\s+25% \(1\/4\)\s+4\s+0\s+0/);
    expect(run.stdout).toContain('edit-file contains fail: not found: "edit-file.ts"');
    expect(run.stdout).toContain(
      'symlinks tool_called partial: expected read_file, called ls, grep, read_file',
    );
  });

  it('--json gives the full report, and --min-score gates the exit code', async () => {
    const run = await runCliCaptured(
      [...demo, '--scorer', 'tool_called,json_schema', '--min-score', '0.6', '--json'],
      {
        cwd: repo,
      },
    );
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.summary.scorers.json_schema).toMatchObject({ mean: 1, scored: 4 });
    expect(report.summary.scorers.tool_called?.mean).toBe(0.5);
    expect(report.gate).toEqual({ min_score: 0.6, passed: false, failing: ['tool_called'] });
    const pass = await runCliCaptured([...demo, '--scorer', 'json_schema', '--min-score', '0.6'], {
      cwd: repo,
    });
    expect(pass.code).toBe(0);
    expect(pass.stdout).toContain('Every scorer reached 0.6.');
  });

  it('grades with the shipped judge agent and a scripted judge model: the wrong answer fails', async () => {
    const run = await runCliCaptured(
      [
        ...demo,
        '--scorer',
        'llm_judge,contains',
        '--judge-model',
        'scripted:examples/evals/judge-turns.json',
        '--json',
      ],
      { cwd: repo },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.summary.scorers.llm_judge).toMatchObject({ mean: 0.75, passed: 3, errors: 0 });
    // The judge agrees with `contains`: the edit-file row gets the sandbox report, a wrong answer.
    const verdicts = report.results.map((r) => [
      r.row_id,
      r.scores.llm_judge?.label,
      r.scores.contains?.label,
    ]);
    expect(verdicts).toEqual([
      ['sandbox', 'pass', 'pass'],
      ['symlinks', 'pass', 'pass'],
      ['escape-tests', 'pass', 'pass'],
      ['edit-file', 'fail', 'fail'],
    ]);
  });

  it('reports judge failures as errors, not zeros', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-eval-'));
    await writeFile(
      join(dir, 'prose.json'),
      JSON.stringify([{ parts: [{ text: 'Seems fine.' }] }]),
    );
    const run = await runCliCaptured(
      [
        ...demo,
        '--scorer',
        'llm_judge',
        '--judge-model',
        `scripted:${join(dir, 'prose.json')}`,
        '--min-score',
        '0.5',
      ],
      { cwd: repo },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/llm_judge\s+—\s+—\s+0\s+0\s+4/);
    expect(run.stdout).toContain('sandbox llm_judge error: judge ERROR:');
  });

  it('prints the partial summary on Ctrl-C and exits 130', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-eval-'));
    await writeFile(
      join(dir, 'slow.json'),
      JSON.stringify([{ delayMs: 100, parts: [{ text: 'Paris' }] }]),
    );
    await writeFile(
      join(dir, 'rows.jsonl'),
      Array.from({ length: 10 }, (_, i) => `r${i}`)
        .map((id) => JSON.stringify({ id, input: 'q', expected: 'paris' }))
        .join('\n'),
    );
    await writeFile(
      join(dir, 'chat.md'),
      '---\nname: chat\ndescription: Chats\ntools: []\n---\nAnswer.\n',
    );
    const run = await runCliCaptured(
      [
        'eval',
        'chat.md',
        '--dataset',
        'rows.jsonl',
        '--model',
        'scripted:slow.json',
        '--concurrency',
        '1',
      ],
      {
        cwd: dir,
        // A real timer, kept: without a terminal the eval shows nothing per row to act on, and
        // 450 ms into ten 100 ms runs leaves room for 1 to 8 of them, all the assertion asks.
        onInterrupt: (handler) => {
          const timer = setTimeout(handler, 450);
          return () => clearTimeout(timer);
        },
      },
    );
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('Stopping…');
    expect(run.stdout).toMatch(
      /^Interrupted\. Eval of chat on rows\.jsonl: [1-8] of 10 runs finished/,
    );
    expect(run.stdout).toMatch(/contains\s+1\.000\s+100% \(([1-8])\/\1\)/);
  });

  it('uses a folder of trajectories as a regression set', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-eval-'));
    const record = await runCliCaptured(
      [
        'run',
        'examples/agents/codebase-investigator.yaml',
        '--model',
        'scripted:examples/scripts/investigator-turns.json',
        '--input',
        'objective=How are file tools kept inside the workspace?',
        '--record',
        join(dir, 'runs/sandbox.json'),
        '--quiet',
      ],
      { cwd: repo },
    );
    expect(record.code, record.stderr).toBe(0);
    const run = await runCliCaptured(
      [
        'eval',
        'examples/agents/codebase-investigator.yaml',
        '--dataset',
        join(dir, 'runs'),
        '--model',
        'scripted:examples/scripts/investigator-turns.json',
        '--json',
      ],
      { cwd: repo },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.summary.scorers).toEqual({
      exact: expect.objectContaining({ mean: 1, scored: 1 }),
    });
  });
});
