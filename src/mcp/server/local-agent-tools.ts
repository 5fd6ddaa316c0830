import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentRegistry, RegisteredAgent } from '../../agents/agent-registry.js';
import { nameOf } from '../../agents/agent-registry.js';
import { CadreError } from '../../errors/cadre-error.js';
import type { CadreEvent } from '../../events/types.js';
import type { ModelClient } from '../../model/types.js';
import type { GatePolicy } from '../../policy/tool-gate.js';
import { run } from '../../agents/run-verbs.js';
import type { ConfirmationHandler } from '../../contracts/confirmation.js';
import { PROMPT_INPUT } from '../../runtime/prompt/inputs.js';
import type { ModelResolver, RunOptions } from '../../runtime/loop/run-options.js';
import type { RunResult } from '../../contracts/run-result.js';
import { createRuntime, type Runtime } from '../../runtime/loop/runtime.js';
import { builtinTools } from '../../tools/builtin/index.js';
import type { McpServerConfig } from '../../definition/mcp-server-config.js';
import type { Tool } from '../../tools/types.js';
import {
  textResult,
  type AgentTool,
  type AgentToolSource,
  type ToolCallContext,
} from './agent-tools.js';
import { agentAnnotations } from './agent-annotations.js';
import { definitionTool, PROMPT_SCHEMA, structuredOutput } from './definition-tool.js';

export interface LocalAgentsOptions {
  /** The agents to serve (`agentEnvironment(io).registry`). */
  agents: AgentRegistry;
  /** Folder the file tools are confined to. */
  workspace: string;
  /** Tools agents may be granted (default: the built-in file tools and the shell). */
  tools?: readonly Tool[];
  /** The project's MCP servers, which agents may use in turn. */
  mcpServers?: Readonly<Record<string, McpServerConfig>>;
  runtime?: Runtime;
  /** One client for every agent (tests with scripted models). */
  model?: ModelClient;
  resolveModel?: ModelResolver;
  /** The model of agents that name none. */
  defaultModel?: string;
  policy?: GatePolicy;
  /**
   * Tools approved without asking: exact names (`all` approves every tool),
   * or a test on the name a call arrives with (`cadre mcp --approve`, read
   * like a tool list).
   */
  approve?: readonly string[] | ToolApprovals;
  /** Also serve the built-in code agents (default true). */
  builtins?: boolean;
  /** Every event of every run, e.g. for a log on stderr; `tool` names the MCP tool called. */
  onEvent?: (event: CadreEvent, tool: string) => void;
}

/** Whether calls of a tool (by the name the model calls) were approved beforehand. */
export interface ToolApprovals {
  covers(tool: string): boolean;
}

const namedApprovals = (names: readonly string[]): ToolApprovals => ({
  covers: (tool) => names.includes('all') || names.includes(tool),
});

/** Events a client hears of as progress. */
const PROGRESS_EVENTS = new Set(['turn_started', 'tool_call', 'tool_result', 'approval_required']);

/**
 * The agents of a registry as MCP tools, each call a run in this process
 * (the way `cadre run` runs one). Definitions are served with their input
 * schema; the built-in code agents take a prompt.
 */
export function localAgentTools(options: LocalAgentsOptions): AgentToolSource {
  let runtime: Promise<Runtime> | undefined;
  const runtimeOnce = (): Promise<Runtime> =>
    (runtime ??= options.runtime ? Promise.resolve(options.runtime) : createRuntime());
  const served = (): RegisteredAgent[] =>
    options.agents
      .list()
      .filter((agent) => agent.entry.kind === 'definition' || options.builtins !== false);

  return {
    list: () =>
      Promise.resolve(served().map((agent) => toolOf(agent, options.tools ?? builtinTools))),
    async call(name, args, context) {
      const agent = served().find((a) => nameOf(a.entry) === name);
      if (!agent) return undefined;
      const runOptions: RunOptions = {
        runtime: await runtimeOnce(),
        tools: options.tools ?? builtinTools,
        ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
        agents: options.agents,
        workspace: options.workspace,
        ...(options.model ? { model: options.model } : {}),
        ...(options.resolveModel ? { resolveModel: options.resolveModel } : {}),
        ...(options.defaultModel ? { defaultModel: options.defaultModel } : {}),
        ...(options.policy ? { policy: options.policy } : {}),
        confirm: clientConfirm(context, options.approve ?? []),
        signal: context.signal,
        onEvent: (event) => {
          options.onEvent?.(event, name);
          if (PROGRESS_EVENTS.has(event.type))
            context.progress(`${'  '.repeat(event.depth)}${event.message}`);
        },
      };
      try {
        const { entry } = agent;
        if (entry.kind === 'definition') {
          const result = await run(entry.definition, { ...runOptions, inputs: args });
          const shape = structuredOutput(entry.definition);
          return resultOf(result, shape ? shape.content(result.output) : undefined);
        }
        const prompt = args[PROMPT_INPUT];
        if (typeof prompt !== 'string' || !prompt.trim())
          return textResult(`Invalid arguments: ${PROMPT_INPUT} must be a non-empty string.`, {
            isError: true,
          });
        const result = await run(entry.create(), { ...runOptions, inputs: args });
        return resultOf(result);
      } catch (error) {
        // Refused before the run started (bad inputs, no model configured): the caller can fix it.
        if (error instanceof CadreError) return textResult(error.message, { isError: true });
        throw error;
      }
    },
  };
}

function toolOf(agent: RegisteredAgent, pool: readonly Tool[]): AgentTool {
  const { entry } = agent;
  if (entry.kind === 'definition')
    return definitionTool(entry.definition, (name) =>
      pool.some((tool) => tool.name === name && !tool.sideEffect),
    );
  // A code agent's tools are its own: nothing says it only reads.
  return {
    name: entry.name,
    description: entry.description,
    inputSchema: PROMPT_SCHEMA,
    annotations: agentAnnotations(undefined, () => false),
  };
}

/** The run's answer; any ending but GOAL is an error result that says why. */
export function resultOf(
  result: RunResult,
  structuredContent?: Record<string, unknown>,
): CallToolResult {
  if (result.terminate_reason === 'GOAL')
    return textResult(result.final_message, {
      runId: result.run_id,
      ...(structuredContent ? { structuredContent } : {}),
    });
  const error = result.error?.message;
  const said = result.final_message && result.final_message !== error ? result.final_message : '';
  const ended = `The run ended with ${result.terminate_reason}${error ? `: ${error}` : ''}.`;
  return textResult(said ? `${ended}\n\n${said}` : ended, { isError: true, runId: result.run_id });
}

/**
 * Approvals inside a run: pre-approved tools pass, otherwise the client's
 * person is asked by elicitation; a client that cannot be asked gets the
 * call refused, with the reason the model sees.
 */
function clientConfirm(
  context: Pick<ToolCallContext, 'ask'>,
  approve: readonly string[] | ToolApprovals,
): ConfirmationHandler {
  const approved = 'covers' in approve ? approve : namedApprovals(approve);
  return async (request, signal) => {
    if (approved.covers(request.tool)) return { kind: 'approve' };
    if (!context.ask)
      return {
        kind: 'reject',
        feedback:
          `Approval needed but this MCP client cannot be asked (it does not support elicitation), so ${request.tool} was not run. ` +
          `${request.reason} Tell the user what you would do; they can allow it with \`cadre mcp --approve ${request.tool}\`.`,
      };
    const answer = await context.ask(
      {
        tool: request.tool,
        preview: request.preview,
        reason: request.reason,
        agent: request.execution.path.join(' › '),
        offerAlways: true,
      },
      signal,
    );
    switch (answer.kind) {
      case 'approve':
      case 'approve_always':
        return { kind: answer.kind };
      case 'reject':
        return answer.feedback ? { kind: 'reject', feedback: answer.feedback } : { kind: 'reject' };
      case 'undecided':
        return {
          kind: 'reject',
          feedback: `No decision was made (${answer.why}), so ${request.tool} was not run.`,
        };
      default:
        return answer satisfies never;
    }
  };
}
