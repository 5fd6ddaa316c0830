import type { GatePolicy } from '../../policy/tool-gate.js';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { nameOf } from '../../agents/agent-registry.js';
import { defaultAssistant } from '../../agents/default-assistant.js';
import { loadActiveAgent } from '../../compat/active-agent.js';
import { cachedResolver } from '../../model/cached-resolver.js';
import { resolveModelClient } from '../../model/resolve-model.js';
import type { Message } from '../../model/types.js';
import { ConfigError } from '../../errors/cadre-error.js';
import { run } from '../../agents/run-verbs.js';
import { inputsFor } from '../../runtime/subagents/query-inputs.js';
import { createRuntime } from '../../runtime/loop/runtime.js';
import type { AgentDefinition } from '../../definition/types.js';
import { agentEnvironment, type AgentEnvironment } from '../agent-environment.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { commandPolicy, policyPath } from '../command-policy.js';
import { withProjectTrust } from '../project-trust-flow.js';
import { createProgressPrinter } from '../progress.js';
import { reportError } from '../report-error.js';
import { createStyle, type Style } from '../style.js';
import { terminalConfirm } from '../terminal-confirm.js';
import type { ApproveList } from '../approve-names.js';
import { checkedApprovals } from '../checked-approvals.js';
import { observedRun } from '../../telemetry/observed.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import { telemetryFromEnv } from '../../telemetry/telemetry-from-env.js';
import { workspaceFolder } from '../workspace-folder.js';
import { chatHistoryFile, loadChatHistory } from '../chat-history.js';
import type {
  ApproveFlag,
  ModelFlag,
  PolicyFlag,
  TrustProjectFlag,
} from '../options/agent-options.js';

const HELP =
  'Commands: /agent NAME (switch agent), /agents (list), /clear (forget the conversation), /quit';

export type ChatCommandOptions = ModelFlag & ApproveFlag & PolicyFlag & TrustProjectFlag;

/**
 * `cadre chat [agent]`: a conversation in the terminal. The agent is a
 * discovered name or a file; default ACTIVE_AGENT_PATH, else the built-in
 * assistant. Ctrl-C cancels the turn in flight; at the prompt it quits.
 */
export async function chatCommand(
  agentArg: string | undefined,
  options: ChatCommandOptions,
  io: CliIO,
): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  if (!io.ask) {
    io.stderr('cadre chat needs a terminal; use `cadre run` in scripts.\n');
    return EXIT.failed;
  }
  let telemetry: Telemetry | undefined;
  try {
    // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT asks; every turn shares the session's conversation id.
    telemetry = await telemetryFromEnv(io.env);
    const session = randomUUID();
    // What the project would load is gathered first: the terminal is asked once about what is untrusted.
    const policyFile = policyPath(io, options.policy);
    const started = await withProjectTrust(
      io,
      { ask: true, ...(options.trustProject ? { trustProject: true } : {}) },
      async (gate) => {
        if (policyFile) await gate.allows(policyFile, 'policy');
        const environment = await agentEnvironment(io, { gate });
        const agent = await pickAgent(agentArg ?? io.env.ACTIVE_AGENT_PATH, environment, io);
        return { gate, environment, agent };
      },
    );
    const policy = await commandPolicy(io, options.policy, started.gate);
    const environment = started.environment;
    for (const line of environment.diagnostics) io.stderr(`${style.yellow('note')} ${line}\n`);
    let agent = started.agent;
    // Checked against the first agent; a later `/agent` keeps the same approvals.
    const approvals = checkedApprovals(options.approve, agent, environment);
    const runtime = await createRuntime();
    const workspace = await workspaceFolder(io, undefined);
    let history: Message[] = [];
    const typed = await loadChatHistory(chatHistoryFile(io.env, io.cwd));
    // One client per model for the whole session (a scripted model keeps its place, connections are reused).
    const resolveOnce = cachedResolver((model: string) =>
      resolveModelClient(model, io.env, { cwd: io.cwd }),
    );
    const resolveModel = (name: string): ReturnType<typeof resolveModelClient> =>
      resolveOnce(options.model ?? name);
    io.stderr(
      `${style.bold(agent.name)} — ${agent.description.split('\n')[0]}\n${style.dim(HELP)}\n`,
    );
    for (;;) {
      let line: string;
      try {
        line = (
          await io.ask(`${style.cyan('you')}> `, new AbortController().signal, typed.lines)
        ).trim();
      } catch {
        return EXIT.ok; // Ctrl-C or end of input at the prompt
      }
      if (!line) continue;
      await typed.add(line);
      if (line === '/quit' || line === '/exit') return EXIT.ok;
      if (line === '/clear') {
        history = [];
        io.stderr(style.dim('Conversation cleared.\n'));
        continue;
      }
      if (line === '/agents') {
        io.stderr(`${environment.registry.names().join(', ') || '(none found)'}\n`);
        continue;
      }
      if (line.startsWith('/agent')) {
        const name = line.slice('/agent'.length).trim();
        try {
          agent = await pickAgent(name, environment, io);
          history = [];
          io.stderr(`Now talking to ${style.bold(agent.name)}.\n`);
        } catch (error) {
          reportError(error, io.stderr, style);
        }
        continue;
      }
      if (line.startsWith('/')) {
        io.stderr(`${HELP}\n`);
        continue;
      }
      const reply = await turn(agent, line, history, {
        io,
        style,
        environment,
        policy,
        runtime,
        workspace,
        options,
        approvals,
        resolveModel,
        ...(telemetry ? { telemetry } : {}),
        session,
      });
      if (reply !== undefined) {
        history = [...history, text('user', line), text('model', reply)];
        io.stdout(`${style.bold(agent.name)}> ${reply}\n`);
      }
    }
  } catch (error) {
    return reportError(error, io.stderr, style);
  } finally {
    await telemetry?.shutdown();
  }
}

interface TurnContext {
  io: CliIO;
  style: Style;
  environment: AgentEnvironment;
  runtime: Awaited<ReturnType<typeof createRuntime>>;
  workspace: string;
  options: ChatCommandOptions;
  approvals: ApproveList;
  resolveModel: (name: string) => ReturnType<typeof resolveModelClient>;
  policy: GatePolicy;
  telemetry?: Telemetry;
  /** The chat session, as the traces' conversation id. */
  session: string;
}

async function turn(
  agent: AgentDefinition,
  prompt: string,
  history: Message[],
  t: TurnContext,
): Promise<string | undefined> {
  const controller = new AbortController();
  const unsubscribe = t.io.onInterrupt?.(() => controller.abort());
  try {
    const result = await run(agent, {
      inputs: inputsFor({ kind: 'definition', definition: agent }, prompt),
      history,
      runtime: t.runtime,
      tools: t.environment.tools,
      mcpServers: t.environment.mcpServers,
      prices: t.environment.prices,
      contextWindows: t.environment.contextWindows,
      agents: t.environment.registry,
      workspace: t.workspace,
      ...((t.options.model ?? t.io.env.CADRE_MODEL)
        ? { defaultModel: t.options.model ?? t.io.env.CADRE_MODEL }
        : {}),
      resolveModel: t.resolveModel,
      signal: controller.signal,
      policy: t.policy,
      confirm: terminalConfirm(t.io, t.approvals),
      ...observedRun(t.telemetry, createProgressPrinter(t.io.stderr, t.style), {
        conversationId: t.session,
      }),
    });
    if (result.terminate_reason === 'ABORTED') {
      t.io.stderr(t.style.yellow('Cancelled.\n'));
      return undefined;
    }
    return result.content;
  } catch (error) {
    reportError(error, t.io.stderr, t.style);
    return undefined;
  } finally {
    unsubscribe?.();
    t.io.resetInterrupts?.();
  }
}

async function pickAgent(
  nameOrPath: string | undefined,
  environment: AgentEnvironment,
  io: CliIO,
): Promise<AgentDefinition> {
  if (!nameOrPath) {
    // Routes over the project's own agents; built-ins stay callable by name.
    return defaultAssistant(
      environment.registry
        .list()
        .filter((a) => a.origin !== 'builtin')
        .map((a) => nameOf(a.entry)),
    );
  }
  const entry = environment.registry.get(nameOrPath);
  if (entry?.kind === 'definition') return entry.definition;
  const active = await loadActiveAgent(resolve(io.cwd, nameOrPath), environment.loadOptions);
  if (active.kind !== 'definition')
    throw new ConfigError(
      `${nameOrPath} is an agent-format module; chat with definitions or discovered agents.`,
    );
  return active.definition;
}

const text = (role: 'user' | 'model', value: string): Message => ({
  role,
  parts: [{ kind: 'text', text: value }],
});
