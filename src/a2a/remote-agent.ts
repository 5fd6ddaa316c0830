import type { Agent, AgentContext, AgentInput } from '../contracts/agent.js';
import type { AgentDefinition, RemoteAgentConfig } from '../definition/types.js';
import { ToolExecutionError } from '../errors/cadre-error.js';
import type { AgentEventInput } from '../events/types.js';
import { optionalImport } from '../util/optional-import.js';
import type { RemoteAnswer } from './remote-answer.js';
import { traceHeaders } from '../contracts/trace-carrier.js';
import { fetchWithHeaders, remoteHeaders } from './remote-headers.js';

/** The SDK is an optional peer: only a run that calls a remote agent loads it, and a missing one is named. */
const loadCall = () =>
  optionalImport(() => import('./call-remote.js'), {
    needs: 'Remote (A2A) agents need',
    packages: ['@a2a-js/sdk'],
  });

/**
 * Why a remote agent gave no answer. A task waiting for input (a question,
 * an approval, credentials) cannot be answered from inside this call, so the
 * calling agent is told so, with what the remote asked, instead of waiting.
 */
function refusal(name: string, answer: Extract<RemoteAnswer, { kind: 'refused' }>): string {
  const asked = answer.text ? `: ${answer.text}` : '';
  if (answer.state === 'input-required' || answer.state === 'auth-required')
    return `Remote agent ${name} is waiting for input that this call cannot give (its task ${answer.taskId} is ${answer.state})${asked}`;
  return `Remote agent ${name} stopped with its task ${answer.state}${asked}`;
}

/**
 * A remote agent (Gemini CLI `kind: remote`, ADK `RemoteA2aAgent`): the task
 * goes to the agent its card describes over A2A, and the remote answer is
 * this agent's answer. As a subagent it is a tool like any other.
 */
export class RemoteAgent implements Agent {
  readonly name: string;
  readonly description: string;

  constructor(
    definition: AgentDefinition,
    private readonly remote: RemoteAgentConfig,
  ) {
    this.name = definition.name;
    this.description = definition.description;
  }

  async *execute(input: AgentInput, ctx: AgentContext): AsyncIterable<AgentEventInput> {
    yield {
      type: 'remote_call',
      message: `Asking ${this.remote.agentCardUrl}`,
      data: { agentCardUrl: this.remote.agentCardUrl },
    };
    // The file asked to send a secret of this machine and is not trusted: nothing is sent.
    if (this.remote.authRefused) throw new ToolExecutionError(this.remote.authRefused);
    const headers = this.remote.auth ? await remoteHeaders(this.remote.auth, process.env) : {};
    const { callRemote } = await loadCall();
    const answer = await callRemote({
      agentCardUrl: this.remote.agentCardUrl,
      text: input.prompt,
      signal: ctx.signal,
      // The secret to the card's origin only; the trace context (no secret) wherever the card points.
      fetchImpl: fetchWithHeaders(
        new URL(this.remote.agentCardUrl).origin,
        headers,
        fetchWithHeaders(undefined, traceHeaders(ctx.traceCarrier?.())),
      ),
    });
    if (answer.kind === 'refused') throw new ToolExecutionError(refusal(this.name, answer));
    yield {
      type: 'final_result',
      message: 'Remote agent answered',
      data: {
        content: answer.text,
        ...(answer.taskId ? { output: { taskId: answer.taskId } } : {}),
      },
    };
  }
}
