import { cachedResolver } from '../../model/cached-resolver.js';
import { type RunOptions } from '../../runtime/loop/executor.js';
import { run } from '../../agents/run-verbs.js';
import type { RunResult } from '../../contracts/run-result.js';
import { createRuntime } from '../../runtime/loop/runtime.js';
import { runRecorded } from '../../trajectory/run-recorded.js';
import { commandPolicy, policyPath } from '../command-policy.js';
import { withProjectTrust } from '../project-trust-flow.js';
import { workspaceFolder } from '../workspace-folder.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { parseCliInputs } from '../parse-inputs.js';
import { cliModelResolver } from '../cli-model.js';
import { createProgressPrinter } from '../progress.js';
import { unconfinedShellWarning } from '../sandbox-notice.js';
import { reportError } from '../report-error.js';
import { cancelOnInterrupt } from '../cancel-on-interrupt.js';
import { createStyle, type Style } from '../style.js';
import { agentTarget } from '../agent-target.js';
import { defaultAgentTarget } from '../default-agent-target.js';
import { promptOrStdin } from '../stdin-prompt.js';
import { terminalConfirm } from '../terminal-confirm.js';
import { unattendedCalls, unattendedNotice } from '../unattended-calls.js';
import { checkedApprovals } from '../checked-approvals.js';
import { observedRun } from '../../telemetry/observed.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import { telemetryFromEnv } from '../../telemetry/telemetry-from-env.js';
import { resolve } from 'node:path';
import type {
  ApproveFlag,
  InputFlag,
  ModelFlag,
  PolicyFlag,
  TrustProjectFlag,
  WorkspaceFlag,
} from '../options/agent-options.js';
import type { JsonFlag, QuietFlag, RecordFlag } from '../options/output-options.js';

export type RunCommandOptions = InputFlag &
  ModelFlag &
  WorkspaceFlag &
  ApproveFlag &
  JsonFlag &
  QuietFlag &
  RecordFlag &
  PolicyFlag &
  TrustProjectFlag;

/**
 * `cadre run <file> [prompt...]`: progress on stderr, the result on stdout.
 * No file: the default agent (`cadre -p`). No prompt for an agent that
 * takes one: stdin, when something is piped.
 */
export async function runCommand(
  file: string | undefined,
  promptWords: string[],
  options: RunCommandOptions,
  io: CliIO,
): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const interrupt = cancelOnInterrupt(
    io,
    `${style.yellow('Cancelling…')} (Ctrl-C again to exit now)`,
  );
  let telemetry: Telemetry | undefined;
  const warn = (line: string): void => io.stderr(`${style.yellow('warning')} ${line}\n`);
  try {
    // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT asks; nothing is loaded otherwise.
    telemetry = await telemetryFromEnv(io.env);
    // What the project would load is gathered first: a terminal is asked once about what is untrusted.
    const policyFile = policyPath(io, options.policy);
    const { gate, environment, definition } = await withProjectTrust(
      io,
      {
        ask: true,
        signal: interrupt.signal,
        ...(options.trustProject ? { trustProject: true } : {}),
      },
      async (gate) => {
        if (policyFile) await gate.allows(policyFile, 'policy');
        const target =
          file === undefined
            ? await defaultAgentTarget(io, warn, gate)
            : await agentTarget(file, io, warn, gate);
        return { gate, ...target };
      },
    );
    const policy = await commandPolicy(io, options.policy, gate);
    const unconfined = await unconfinedShellWarning(definition.toolConfig.tools, io.env);
    if (unconfined) io.stderr(`${style.yellow('warning')} ${unconfined}\n`);
    const approvals = checkedApprovals(options.approve, definition, environment);
    const inputs = parseCliInputs(
      definition,
      options.input,
      await promptOrStdin(definition, options.input, promptWords, io),
    );
    const workspace = await workspaceFolder(io, options.workspace);
    const modelName = options.model ?? definition.modelConfig?.model ?? io.env.CADRE_MODEL;
    const unattended = unattendedCalls();
    // Keyed by the effective model, so every agent of the tree shares one client.
    const resolveOnce = cachedResolver(cliModelResolver(io));
    const runOptions: RunOptions = {
      inputs,
      runtime: await createRuntime(),
      tools: environment.tools,
      mcpServers: environment.mcpServers,
      prices: environment.prices,
      contextWindows: environment.contextWindows,
      agents: environment.registry,
      workspace,
      ...(modelName ? { defaultModel: modelName } : {}),
      resolveModel: (name) => resolveOnce(options.model ?? name),
      signal: interrupt.signal,
      policy,
      confirm: terminalConfirm(io, approvals, unattended),
      // Traced calls out (MCP, A2A, web_fetch, model headers) carry the run's trace context.
      ...observedRun(
        telemetry,
        options.quiet ? undefined : createProgressPrinter(io.stderr, style),
      ),
    };
    const result = options.record
      ? (
          await runRecorded(definition, {
            ...runOptions,
            record: { file: resolve(io.cwd, options.record) },
          })
        ).result
      : await run(definition, runOptions);
    if (options.record) io.stderr(`Recorded trajectory: ${options.record}\n`);
    // stdout holds the answer or the JSON result only: a run that stopped short says why on stderr.
    if (options.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    else if (result.terminate_reason === 'GOAL') io.stdout(`${result.final_message}\n`);
    else io.stderr(stoppedReport(result, style));
    if (result.terminate_reason === 'ABORTED') return EXIT.interrupted;
    if (result.error?.code === 'setup') return EXIT.setup;
    // Whatever the model made of it, what it was asked to do is not all done: never exit 0.
    if (unattended.tools().length > 0) {
      io.stderr(unattendedNotice(unattended.tools(), style));
      return EXIT.unapproved;
    }
    return result.terminate_reason === 'GOAL' ? EXIT.ok : EXIT.failed;
  } catch (error) {
    return reportError(error, io.stderr, style);
  } finally {
    interrupt.dispose();
    await telemetry?.shutdown();
  }
}

/** Why a run stopped short, and the tool calls it made: its final message is an error, not an answer. */
function stoppedReport(result: RunResult, style: Style): string {
  const label = result.terminate_reason === 'ABORTED' ? '' : `${style.red('error')} `;
  const lines = [
    `${label}${result.final_message}`,
    '',
    `Stopped: ${result.terminate_reason} after ${result.turns} turn(s), ${result.traces.length} tool call(s).`,
  ];
  for (const trace of result.traces)
    lines.push(`  - ${trace.tool}${trace.output.startsWith('Error: ') ? ' (failed)' : ''}`);
  return `${lines.join('\n')}\n`;
}
