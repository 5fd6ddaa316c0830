import { resolve } from 'node:path';
import { ConfigError } from '../../errors/cadre-error.js';
import { resolveModelClient } from '../../model/resolve-model.js';
import { FALLBACK_MODEL } from '../../runtime/loop/executor.js';
import { createRuntime } from '../../runtime/loop/runtime.js';
import { builtinTools } from '../../tools/builtin/index.js';
import { agentEnvironment } from '../agent-environment.js';
import { agentTarget } from '../agent-target.js';
import { definitionFromSnapshot } from '../../definition/definition-snapshot.js';
import { formatReplayReport } from '../../trajectory/format-report.js';
import { loadTrajectory, saveTrajectory } from '../../trajectory/load-trajectory.js';
import type { LiveModel } from '../../trajectory/replay-model.js';
import { replayTrajectory } from '../../trajectory/replay.js';
import { workspaceFolder } from '../workspace-folder.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { createProgressPrinter } from '../progress.js';
import { reportError } from '../report-error.js';
import { cancelOnInterrupt } from '../cancel-on-interrupt.js';
import { createStyle } from '../style.js';
import { terminalConfirm } from '../terminal-confirm.js';
import { unattendedCalls, unattendedNotice } from '../unattended-calls.js';
import { checkedApprovals } from '../checked-approvals.js';
import type { ApproveFlag, ModelFlag, WorkspaceFlag } from '../options/agent-options.js';
import type { JsonFlag, QuietFlag, RecordFlag } from '../options/output-options.js';

export type ReplayCommandOptions = {
  agent?: string;
  strict?: boolean;
  liveTools?: boolean;
  until?: string;
  timing?: string | boolean;
} & ModelFlag &
  WorkspaceFlag &
  ApproveFlag &
  RecordFlag &
  JsonFlag &
  QuietFlag;

/**
 * `cadre replay FILE.json`: the recorded agent runs again through the real
 * executor with recorded model answers and tool results (no network, no
 * side effects); the report says where the new run diverged.
 */
export async function replayCommand(
  file: string,
  options: ReplayCommandOptions,
  io: CliIO,
): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const interrupt = cancelOnInterrupt(
    io,
    `${style.yellow('Cancelling…')} (Ctrl-C again to exit now)`,
  );
  try {
    const trajectory = await loadTrajectory(resolve(io.cwd, file), interrupt.signal);
    const warn = (line: string): void => io.stderr(`${style.yellow('warning')} ${line}\n`);
    // --agent is a file or an agent name, as `cadre run` takes them.
    const chosen = options.agent ? await agentTarget(options.agent, io, warn) : undefined;
    // Subagents run again (their model steps replayed), so the command sees the agents `cadre run` does.
    const recorded = trajectory.agent.source;
    const environment =
      chosen?.environment ?? (await agentEnvironment(io, recorded ? { besides: recorded } : {}));
    if (!chosen) environment.toolWarnings.forEach(warn);
    const definition = chosen?.definition;
    const until = options.until === undefined ? undefined : count(options.until, '--until');
    const timingScale =
      options.timing === undefined || options.timing === false ? undefined : scale(options.timing);
    const workspace = await workspaceFolder(io, options.workspace);
    // Resolved before the replay starts, so a missing key fails at once, not mid-run.
    const agentDefinition = definition ?? definitionFromSnapshot(trajectory.agent);
    const agentModel = agentDefinition.modelConfig?.model;
    const approvals = checkedApprovals(options.approve, agentDefinition, {
      ...environment,
      tools: builtinTools,
    });
    const live = until === undefined ? undefined : liveModel(options.model ?? agentModel, io);
    const unattended = unattendedCalls();
    const {
      result,
      report,
      trajectory: replayed,
    } = await replayTrajectory(trajectory, {
      ...(definition ? { definition } : {}),
      strict: options.strict === true,
      liveTools: options.liveTools === true,
      tools: builtinTools,
      agents: environment.registry,
      ...(until !== undefined ? { until } : {}),
      ...(live ? { live: () => live } : {}),
      ...(timingScale ? { timingScale } : {}),
      confirm: terminalConfirm(io, approvals, unattended),
      signal: interrupt.signal,
      workspace,
      runtime: await createRuntime(),
      record: options.record !== undefined,
      ...(options.quiet || options.json
        ? {}
        : { onEvent: createProgressPrinter(io.stderr, style) }),
    });
    if (options.record && replayed) {
      await saveTrajectory(resolve(io.cwd, options.record), replayed);
      io.stderr(`Recorded the replayed run: ${options.record}\n`);
    }
    if (options.json) io.stdout(`${JSON.stringify({ result, replay: report }, null, 2)}\n`);
    else {
      io.stdout(`${result.final_message}\n`);
      io.stderr(formatReplayReport(report, file));
    }
    if (result.terminate_reason === 'ABORTED') return EXIT.interrupted;
    if (unattended.tools().length > 0) {
      io.stderr(unattendedNotice(unattended.tools(), style));
      return EXIT.unapproved;
    }
    if (options.strict && report.divergences.length > 0) return EXIT.failed;
    return result.terminate_reason === 'GOAL' ? EXIT.ok : EXIT.failed;
  } catch (error) {
    return reportError(error, io.stderr, style);
  } finally {
    interrupt.dispose();
  }
}

/** The model a fork continues with, chosen as `cadre run` would: --model, the definition, CADRE_MODEL. */
function liveModel(requested: string | undefined, io: CliIO): LiveModel {
  const name = requested ?? io.env.CADRE_MODEL ?? FALLBACK_MODEL;
  const { client, model } = resolveModelClient(name, io.env, { cwd: io.cwd });
  return { client, model };
}

function count(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new ConfigError(`${flag} expects a whole number of model steps, got "${text}".`);
  return value;
}

function scale(value: string | true): number {
  if (value === true) return 1;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new ConfigError(`--timing expects a positive scale, got "${value}".`);
  return n;
}
