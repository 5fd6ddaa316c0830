import { formatIssue } from '../../errors/validation-error.js';
import { cachedResolver } from '../../model/cached-resolver.js';
import { resolveModelClient } from '../../model/resolve-model.js';
import { executeAgent, type RunOptions } from '../../runtime/loop/executor.js';
import type { RunResult } from '../../contracts/run-result.js';
import { createRuntime } from '../../runtime/loop/runtime.js';
import { loadDefinition } from '../../definition/load-definition.js';
import { agentEnvironment } from '../agent-environment.js';
import { runRecorded } from '../../trajectory/run-recorded.js';
import { commandPolicy } from '../command-policy.js';
import { workspaceFolder } from '../workspace-folder.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { parseCliInputs } from '../parse-inputs.js';
import { createProgressPrinter } from '../progress.js';
import { unconfinedShellWarning } from '../sandbox-notice.js';
import { reportError } from '../report-error.js';
import { cancelOnInterrupt } from '../cancel-on-interrupt.js';
import { createStyle } from '../style.js';
import { terminalConfirm } from '../terminal-confirm.js';
import { checkedApprovals } from '../checked-approvals.js';
import { observed } from '../../telemetry/observed.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import { telemetryFromEnv } from '../../telemetry/telemetry-from-env.js';
import { resolve } from 'node:path';

export interface RunCommandOptions {
  input: string[];
  model?: string;
  workspace?: string;
  json?: boolean;
  approve: string[];
  quiet?: boolean;
  /** Write the run's trajectory here (JSON). */
  record?: string;
  /** A YAML policy file (rules, trust); else CADRE_POLICY. */
  policy?: string;
}

/** `cadre run <file> [prompt...]`: progress on stderr, the result on stdout. */
export async function runCommand(
  file: string,
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
  try {
    // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT asks; nothing is loaded otherwise.
    telemetry = await telemetryFromEnv(io.env);
    const policy = await commandPolicy(io, options.policy);
    const path = resolve(io.cwd, file);
    const environment = await agentEnvironment(io, { besides: path });
    for (const line of environment.skipped) io.stderr(`${style.yellow('warning')} ${line}\n`);
    const { definition, warnings } = await loadDefinition(path, environment.loadOptions);
    for (const warning of warnings)
      io.stderr(`${style.yellow('warning')} ${formatIssue(warning)}\n`);
    const unconfined = await unconfinedShellWarning(definition.toolConfig.tools, io.env);
    if (unconfined) io.stderr(`${style.yellow('warning')} ${unconfined}\n`);
    const approvals = checkedApprovals(options.approve, definition, environment);
    const inputs = parseCliInputs(definition, options.input);
    if (promptWords.length > 0) inputs.prompt = promptWords.join(' ');
    const workspace = await workspaceFolder(io, options.workspace);
    const modelName = options.model ?? definition.modelConfig?.model ?? io.env.CADRE_MODEL;
    // Keyed by the effective model, so every agent of the tree shares one client.
    const resolveOnce = cachedResolver((model: string) =>
      resolveModelClient(model, io.env, { cwd: io.cwd }),
    );
    const runOptions: RunOptions = {
      inputs,
      runtime: await createRuntime(),
      tools: environment.tools,
      mcpServers: environment.mcpServers,
      prices: environment.prices,
      agents: environment.registry,
      workspace,
      ...(modelName ? { defaultModel: modelName } : {}),
      resolveModel: (name) => resolveOnce(options.model ?? name),
      signal: interrupt.signal,
      policy,
      confirm: terminalConfirm(io, approvals),
      onEvent: observed(
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
      : await executeAgent(definition, runOptions);
    if (options.record) io.stderr(`Recorded trajectory: ${options.record}\n`);
    io.stdout(options.json ? `${JSON.stringify(result, null, 2)}\n` : humanResult(result));
    if (result.terminate_reason === 'ABORTED') return EXIT.interrupted;
    if (result.error?.code === 'setup') return EXIT.setup;
    return result.terminate_reason === 'GOAL' ? EXIT.ok : EXIT.failed;
  } catch (error) {
    return reportError(error, io.stderr, style);
  } finally {
    interrupt.dispose();
    await telemetry?.shutdown();
  }
}

function humanResult(result: RunResult): string {
  const lines = [result.final_message];
  if (result.terminate_reason !== 'GOAL') {
    lines.push(
      '',
      `Stopped: ${result.terminate_reason} after ${result.turns} turn(s), ${result.traces.length} tool call(s).`,
    );
    for (const trace of result.traces)
      lines.push(`  - ${trace.tool}${trace.output.startsWith('Error: ') ? ' (failed)' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
