import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError } from '../../errors/cadre-error.js';
import { belowMinimum } from '../../eval/summarise.js';
import { buildScorers, defaultScorers, parseScorerSpecs } from '../../eval/scorer-specs.js';
import { formatSummary } from '../../eval/format-summary.js';
import { loadDataset } from '../../eval/load-dataset.js';
import { createProgressBar } from '../../eval/progress-bar.js';
import { runEval } from '../../eval/run-eval.js';
import { loadJudgeDefinition } from '../../eval/scorers/judge-definition.js';
import { llmJudgeScorer } from '../../eval/scorers/llm-judge.js';
import type { JsonSchema } from '../../model/types.js';
import { resolveModelClient } from '../../model/resolve-model.js';
import { refuseSideEffects } from '../../contracts/confirmation.js';
import { checkedApprovals } from '../checked-approvals.js';
import { approvedOnly } from '../terminal-confirm.js';
import { FALLBACK_MODEL, type ModelResolver } from '../../runtime/loop/executor.js';
import { createRuntime } from '../../runtime/loop/runtime.js';
import { cachedResolver } from '../../model/cached-resolver.js';
import { agentTarget } from '../agent-target.js';
import { workspaceFolder } from '../workspace-folder.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { cancelOnInterrupt } from '../cancel-on-interrupt.js';
import { createStyle } from '../style.js';
import type { ApproveFlag, ModelFlag, WorkspaceFlag } from '../options/agent-options.js';
import type { JsonFlag } from '../options/output-options.js';

export type EvalCommandOptions = {
  dataset: string;
  scorer: string[];
  judgeModel?: string;
  judge?: string;
  concurrency: string;
  repeat: string;
  retries: string;
  minScore?: string;
} & ModelFlag &
  WorkspaceFlag &
  ApproveFlag &
  JsonFlag;

/**
 * `cadre eval <agent> --dataset FILE.jsonl|DIR`: runs the agent on every
 * row, scores the answers, prints a summary (or --json). Exit 1 when a
 * scorer's mean is under --min-score; Ctrl-C prints the partial summary.
 */
export async function evalCommand(
  agentFile: string,
  options: EvalCommandOptions,
  io: CliIO,
): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const interrupt = cancelOnInterrupt(
    io,
    `${style.yellow('Stopping…')} runs in progress are cancelled; the partial summary follows.`,
  );
  try {
    const concurrency = whole(options.concurrency, '--concurrency', 1);
    const repeat = whole(options.repeat, '--repeat', 1);
    const retries = whole(options.retries, '--retries', 0);
    const minScore = options.minScore === undefined ? undefined : fraction(options.minScore);
    // A file or an agent name, as `cadre run` takes them; only the agent's own problems are said.
    const { environment, definition } = await agentTarget(agentFile, io, (line) =>
      io.stderr(`${style.yellow('warning')} ${line}\n`),
    );
    const approvals = checkedApprovals(options.approve, definition, environment);
    const dataset = await loadDataset(resolve(io.cwd, options.dataset), interrupt.signal);
    for (const w of dataset.warnings) io.stderr(`${style.yellow('warning')} ${w}\n`);
    const others = dataset.agents.filter((a) => a !== definition.name);
    if (others.length > 0)
      io.stderr(
        `${style.yellow('warning')} trajectories recorded for ${others.join(', ')}, evaluated with ${definition.name}\n`,
      );
    const workspace = await workspaceFolder(io, options.workspace);
    const runtime = await createRuntime();
    const modelName = options.model ?? definition.modelConfig?.model ?? io.env.CADRE_MODEL;
    // Each run gets its own resolver, shared by its subagents, as `cadre run` does.
    const resolverFor = (): ModelResolver => {
      const once = cachedResolver((model: string) =>
        resolveModelClient(model, io.env, { cwd: io.cwd }),
      );
      return (name) => once(options.model ?? name);
    };
    resolverFor()(modelName ?? FALLBACK_MODEL); // fail before any row runs when no model is reachable
    const specs =
      options.scorer.length > 0
        ? parseScorerSpecs(options.scorer)
        : defaultScorers(dataset.kind, dataset.rows);
    const scorers = await buildScorers(specs, {
      definition,
      validator: runtime.validator,
      readSchema: (file) => readSchema(resolve(io.cwd, file)),
      judge: async () => {
        const judge = await loadJudgeDefinition(
          options.judge ? resolve(io.cwd, options.judge) : undefined,
        );
        const judgeModel: ModelResolver = (name) =>
          resolveModelClient(options.judgeModel ?? name, io.env, { cwd: io.cwd });
        judgeModel(
          options.judgeModel ?? judge.modelConfig?.model ?? io.env.CADRE_MODEL ?? FALLBACK_MODEL,
        );
        return llmJudgeScorer({
          definition: judge,
          resolveModel: judgeModel,
          runtime,
          ...(io.env.CADRE_MODEL ? { defaultModel: io.env.CADRE_MODEL } : {}),
        });
      },
    });
    const bar = io.isTTY && !options.json ? createProgressBar(io.stderr) : undefined;
    const report = await runEval(definition, dataset.rows, {
      scorers,
      run: {
        tools: environment.tools,
        mcpServers: environment.mcpServers,
        prices: environment.prices,
        workspace,
        runtime,
        agents: environment.registry,
        ...(modelName ? { defaultModel: modelName } : {}),
        confirm: options.approve.length > 0 ? approvedOnly(approvals) : refuseSideEffects,
      },
      resolverFor,
      concurrency,
      repeat,
      retries,
      signal: interrupt.signal,
      ...(bar ? { onProgress: (p) => bar.update(p) } : {}),
      dataset: options.dataset,
    });
    bar?.end();
    const failing = minScore === undefined ? [] : belowMinimum(report.summary, minScore);
    const gate =
      minScore === undefined
        ? undefined
        : { min_score: minScore, passed: failing.length === 0, failing };
    if (options.json)
      io.stdout(`${JSON.stringify({ ...report, ...(gate ? { gate } : {}) }, null, 2)}\n`);
    else {
      io.stdout(formatSummary(report));
      if (gate)
        io.stdout(
          gate.passed
            ? `\nEvery scorer reached ${minScore}.\n`
            : `\nBelow --min-score ${minScore}: ${failing.join(', ')}\n`,
        );
    }
    if (report.interrupted) return EXIT.interrupted;
    return failing.length > 0 ? EXIT.failed : EXIT.ok;
  } catch (error) {
    return reportError(error, io.stderr, style);
  } finally {
    interrupt.dispose();
  }
}

async function readSchema(file: string): Promise<JsonSchema> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as JsonSchema;
  } catch (error) {
    throw new ConfigError(`Cannot read the JSON Schema ${file}: ${(error as Error).message}`);
  }
}

function whole(text: string, flag: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min)
    throw new ConfigError(`${flag} expects a whole number ≥ ${min}, got "${text}".`);
  return n;
}

function fraction(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new ConfigError(`--min-score expects a number from 0 to 1, got "${text}".`);
  return n;
}
