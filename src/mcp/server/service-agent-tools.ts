import { CadreError } from '../../errors/cadre-error.js';
import type { CadreEvent } from '../../events/types.js';
import type {
  ApprovalView,
  RunHooks,
  RunResponse,
  RunService,
} from '../../server/run-service-types.js';
import {
  isPlainObject,
  textResult,
  type AgentTool,
  type AgentToolSource,
  type ToolCallContext,
} from './agent-tools.js';
import { inputsText } from '../../server/http/run-request.js';
import { builtinTools } from '../../tools/builtin/index.js';
import { agentAnnotations } from './agent-annotations.js';
import { servedAgent, servedInputSchema } from './served-agents.js';

export interface ServiceAgentsOptions {
  service: RunService;
  /** The authenticated user the runs belong to. */
  userId: string;
  /**
   * True once the connection is going away on the server's side (shutdown,
   * an idle or closed session): a call's abort then detaches from its run,
   * which goes on, instead of cancelling it.
   */
  detaching?: () => boolean;
  /** Where the web page is (`http://host:port`), for links to a waiting run. */
  pageUrl?: string;
  /** Failures outside the error taxonomy, for the server log. */
  onError?: (error: unknown) => void;
}

/** The server's tools that only read; any other name may change something. */
const isBuiltinRead = (name: string): boolean =>
  builtinTools.some((tool) => tool.name === name && !tool.sideEffect);

const PROGRESS_EVENTS = new Set(['turn_started', 'tool_call', 'tool_result', 'approval_required']);

/**
 * The server's agents as MCP tools: each call is a run of the run service,
 * stored, audited and owned by the user like any run of `POST /api/agent/run`.
 * The service runs an agent on a prompt, so every tool takes `{ prompt }`;
 * built-in code agents are not served (the service runs definitions only).
 * A run that pauses for approval asks the client (elicitation) and resolves
 * the approval through the service, or else answers with where to decide it.
 */
export function serviceAgentTools(options: ServiceAgentsOptions): AgentToolSource {
  const { service, userId } = options;
  const list = async (): Promise<Array<AgentTool & { structured: boolean }>> =>
    (await service.listAgents()).filter(servedAgent).map((agent) => ({
      name: agent.name,
      description: agent.description,
      ...(agent.displayName ? { title: agent.displayName } : {}),
      inputSchema: servedInputSchema(agent),
      annotations: agentAnnotations(agent.tools, isBuiltinRead),
      structured: (agent.inputs?.length ?? 0) > 0,
    }));

  return {
    list,
    async call(name, args, context) {
      const tool = (await list()).find((listed) => listed.name === name);
      if (!tool) return undefined;
      // An agent with an inputConfig takes its inputs (the service checks them); the thread's message names them.
      const prompt = tool.structured ? inputsText(args) : args.prompt;
      if (typeof prompt !== 'string' || !prompt.trim())
        return textResult('Invalid arguments: prompt must be a non-empty string.', {
          isError: true,
        });
      const run = followedRun(context);
      try {
        let response = await service.run(
          {
            userId,
            prompt,
            agent: name,
            ...(tool.structured ? { inputs: args } : {}),
            ...(context.trace ? { trace: context.trace } : {}),
          },
          run.hooks,
        );
        for (;;) {
          const approval = response.approvals[0];
          if (response.status !== 'awaiting_confirmation' || !approval) break;
          if (!context.ask)
            return waiting(
              response,
              'this MCP client cannot be asked (it does not support elicitation)',
              options.pageUrl,
            );
          const answer = await context.ask(
            {
              tool: approval.tool,
              preview: approval.preview,
              reason: approval.reason,
              // A subagent's call names who asks: `desk › mailer`.
              agent: approval.path ? approval.path.slice(0, -1).join(' › ') : name,
            },
            context.signal,
          );
          if (answer.kind === 'undecided') return waiting(response, answer.why, options.pageUrl);
          response = await service.resolveApproval(
            {
              userId,
              approvalId: approval.approvalId,
              decision: answer.kind === 'reject' ? 'reject' : 'approve_once',
              ...(answer.kind === 'reject' && answer.feedback ? { feedback: answer.feedback } : {}),
            },
            run.hooks,
          );
        }
        return settled(response, run.output(), options.pageUrl);
      } catch (error) {
        const runId = run.id();
        if (context.signal.aborted) {
          // The client cancelled the call: the run stops too (unless the server is letting go).
          if (runId && !options.detaching?.())
            await service.cancelRun(userId, runId).catch((e: unknown) => options.onError?.(e));
          throw error;
        }
        if (error instanceof CadreError)
          return textResult(runId ? `Run ${runId}: ${error.message}` : error.message, {
            isError: true,
          });
        options.onError?.(error);
        return textResult(
          `The run failed on the server${runId ? ` (run ${runId})` : ''}; its log says why.`,
          { isError: true },
        );
      }
    },
  };
}

/** The hooks every step of one call shares: the run's id, its progress, its structured output. */
function followedRun(context: ToolCallContext): {
  hooks: RunHooks;
  id: () => string | undefined;
  output: () => unknown;
} {
  let runId: string | undefined;
  let output: unknown;
  const onEvent = (event: CadreEvent): void => {
    runId ??= event.runId;
    if (event.type === 'final_result' && event.depth === 0) {
      const result = event.data.result;
      output = isPlainObject(result) ? result.output : undefined;
    }
    if (PROGRESS_EVENTS.has(event.type))
      context.progress(`${'  '.repeat(event.depth)}${event.message}`);
  };
  return {
    hooks: {
      signal: context.signal,
      onStarted: (ids) => {
        runId = ids.runId;
      },
      onEvent,
    },
    id: () => runId,
    output: () => output,
  };
}

function settled(
  response: RunResponse,
  output: unknown,
  pageUrl?: string,
): ReturnType<typeof textResult> {
  switch (response.status) {
    case 'completed':
      return textResult(response.summary, {
        runId: response.runId,
        ...(isPlainObject(output) ? { structuredContent: output } : {}),
      });
    case 'failed':
      return textResult(`Run ${response.runId} failed: ${response.summary}`, {
        isError: true,
        runId: response.runId,
      });
    case 'cancelled':
      return textResult(`Run ${response.runId} was cancelled.`, {
        isError: true,
        runId: response.runId,
      });
    case 'running':
      return textResult(
        `Run ${response.runId} is still running; follow it at ${runPage(response.runId, pageUrl)} ` +
          `or GET /api/runs/${response.runId}/stream.`,
        { isError: true, runId: response.runId },
      );
    case 'awaiting_confirmation':
      return waiting(response, 'its approvals are being decided elsewhere', pageUrl);
    default:
      return response.status satisfies never;
  }
}

/** A paused run the client could not decide: where a person can. */
function waiting(
  response: RunResponse,
  why: string,
  pageUrl?: string,
): ReturnType<typeof textResult> {
  const asks = response.approvals.map(
    (a: ApprovalView) => `- ${a.preview} (approval ${a.approvalId})`,
  );
  return textResult(
    [
      `Run ${response.runId} is waiting for approval, and ${why}.`,
      ...asks,
      `A person can decide in the web page at ${runPage(response.runId, pageUrl)}, or with ` +
        'POST /api/agent/approvals/resolve {"approvalId": "…", "decision": "approve_once" | "reject"}; ' +
        'the run goes on once every call is decided.',
    ].join('\n'),
    { isError: true, runId: response.runId },
  );
}

const runPage = (runId: string, pageUrl = ''): string => `${pageUrl}/runs/${runId}`;
