import type {
  Agent,
  AgentContext,
  AgentInput,
  AgentLookup,
  AgentEntry,
} from '../../contracts/agent.js';
import { TimeoutError } from '../../errors/cadre-error.js';
import type { AgentEventInput } from '../../events/types.js';
import type { Message, ModelRequest, Usage } from '../../model/types.js';
import type { AgentDefinition, RouterConfig } from '../../definition/types.js';
import type { ToolTrace } from '../../contracts/run-result.js';
import type { RouterOptions } from '../../contracts/router-options.js';
import { inputsFor } from '../subagents/query-inputs.js';
import { withTimeoutAndCancellation } from '../../util/time-budget.js';
import { callModelOnce } from './call-model-once.js';
import {
  domainLine,
  ROUTE_TOOL,
  routeDeclaration,
  routerInstruction,
  SYNTHESIZER_INSTRUCTION,
  synthesisInput,
} from './router-prompts.js';

export type { RouterOptions };

export const DEFAULT_DOMAIN_TIMEOUT_SECS = 60;

interface DomainResult {
  domain: string;
  intent: string;
  status: 'completed' | 'timed_out' | 'failed';
  content: string;
  traces: ToolTrace[];
}

/**
 * `kind: router` (agent-format seed): one routing call over one-line domain
 * summaries, the chosen domains in parallel under a per-domain timeout,
 * then one synthesis. No target: the router answers directly.
 */
export class LoadedRouterAgent implements Agent {
  readonly name: string;
  readonly description: string;

  constructor(
    private readonly definition: AgentDefinition & { router: RouterConfig },
    private readonly agents: AgentLookup | undefined,
    private readonly options: RouterOptions = {},
  ) {
    this.name = definition.name;
    this.description = definition.description;
  }

  async *execute(input: AgentInput, ctx: AgentContext): AsyncIterable<AgentEventInput> {
    const domains = this.domains();
    const history = input.history ?? [];
    const user: Message = {
      role: 'user',
      parts: [{ kind: 'text', text: withMemory(input.prompt, input.memory) }],
    };
    const request: ModelRequest = {
      model: ctx.modelName,
      systemInstruction: routerInstruction(
        this.definition.promptConfig.systemPrompt,
        [...domains].map(([n, e]) => domainLine(n, e)),
      ),
      messages: [...history, user],
      tools: [routeDeclaration([...domains.keys()])],
      config: {},
    };
    yield { type: 'turn_started', message: 'Routing', data: { phase: 'routing' } };
    const routed = await callModelOnce(ctx, request);
    if (routed.usage) yield { type: 'usage', message: 'router usage', data: { ...routed.usage } };
    const route = routed.calls.find((c) => c.name === ROUTE_TOOL);
    const args = route?.args ?? {};
    const targets = parseTargets(args.targets, domains);
    yield {
      type: 'routing_decided',
      message: targets.length
        ? `Routing to ${targets.map((t) => t.domain).join(', ')}`
        : 'Answering directly',
      data: { targets },
    };
    if (targets.length === 0) {
      const direct =
        typeof args.direct_answer === 'string' && args.direct_answer.trim()
          ? args.direct_answer
          : routed.text;
      yield {
        type: 'final_result',
        message: 'Answered directly',
        data: { content: direct, output: { targets: [], results: [] } },
      };
      return;
    }
    const results = await Promise.all(
      targets.map((t) =>
        this.runDomain(t, domains.get(t.domain) as AgentEntry, input, ctx, route?.id),
      ),
    );
    for (const r of results) {
      yield {
        type: 'domain_finished',
        message: `${r.domain}: ${r.status === 'timed_out' ? 'timed out' : r.status}`,
        data: { domain: r.domain, status: r.status },
      };
    }
    yield { type: 'synthesis_started', message: 'Combining the answers', data: {} };
    const { content, usage } = await this.synthesize(input, results, ctx);
    if (usage) yield { type: 'usage', message: 'synthesizer usage', data: { ...usage } };
    yield {
      type: 'final_result',
      message: 'Done',
      data: {
        content,
        output: { targets, results: results.map(({ traces: _t, ...r }) => r) },
        traces: results.flatMap((r) => r.traces),
      },
    };
  }

  private domains(): Map<string, AgentEntry> {
    const only = this.options.onlyDomains;
    const found = new Map<string, AgentEntry>();
    for (const name of this.definition.router.domains) {
      const entry = this.agents?.get(name);
      if (entry && (!only || only.includes(name))) found.set(name, entry);
    }
    return found;
  }

  private async runDomain(
    target: { domain: string; intent: string },
    entry: AgentEntry,
    input: AgentInput,
    ctx: AgentContext,
    /** The model's route call: each domain's child is started by it. */
    callId: string | undefined,
  ): Promise<DomainResult> {
    const seconds =
      this.options.domainTimeoutSecs ??
      this.definition.router.domainTimeoutSecs ??
      DEFAULT_DOMAIN_TIMEOUT_SECS;
    const query = `${withMemory(input.prompt, input.memory)}\n\nIntent: ${target.intent}`;
    try {
      const result = await withTimeoutAndCancellation(
        (signal) =>
          ctx.spawn({
            target: entry,
            ephemeral: false,
            inputs: inputsFor(entry, query),
            signal,
            ...(this.options.executionMode === 'threads' ? { isolation: 'thread' as const } : {}),
            ...(this.options.models?.domain ? { model: this.options.models.domain } : {}),
            ...(input.history ? { history: input.history } : {}),
            ...(callId ? { callId } : {}),
          }),
        seconds * 1000,
        ctx.signal,
        () => new TimeoutError(`${target.domain} timed out after ${seconds} s`),
      );
      const ok = result.terminate_reason === 'GOAL';
      return {
        ...target,
        status: ok ? 'completed' : 'failed',
        content: result.final_message,
        traces: result.traces,
      };
    } catch (error) {
      ctx.signal.throwIfAborted();
      if (error instanceof TimeoutError)
        return { ...target, status: 'timed_out', content: 'timed out', traces: [] };
      return {
        ...target,
        status: 'failed',
        content: `failed: ${error instanceof Error ? error.message : String(error)}`,
        traces: [],
      };
    }
  }

  private async synthesize(
    input: AgentInput,
    results: DomainResult[],
    ctx: AgentContext,
  ): Promise<{ content: string; usage?: Usage }> {
    const text = synthesisInput(input.prompt, results);
    const name = this.definition.router.synthesizer;
    const entry = name ? this.agents?.get(name) : undefined;
    if (entry) {
      const model = this.options.models?.synth;
      const result = await ctx.spawn({
        target: entry,
        ephemeral: false,
        inputs: inputsFor(entry, text),
        ...(model ? { model } : {}),
      });
      return { content: result.final_message };
    }
    const reply = await callModelOnce(ctx, {
      model: this.options.models?.synth ?? ctx.modelName,
      systemInstruction: SYNTHESIZER_INSTRUCTION,
      messages: [{ role: 'user', parts: [{ kind: 'text', text }] }],
      tools: [],
      config: {},
    });
    return { content: reply.text, ...(reply.usage ? { usage: reply.usage } : {}) };
  }
}

function withMemory(prompt: string, memory: string | undefined): string {
  return memory ? `${prompt}\n\nContext you know about the user:\n${memory}` : prompt;
}

function parseTargets(
  value: unknown,
  domains: ReadonlyMap<string, AgentEntry>,
): Array<{ domain: string; intent: string }> {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const targets: Array<{ domain: string; intent: string }> = [];
  for (const item of value) {
    const domain = (item as { domain?: unknown } | null)?.domain;
    const intent = (item as { intent?: unknown } | null)?.intent;
    // Unknown domains are dropped, never run.
    if (typeof domain !== 'string' || !domains.has(domain) || seen.has(domain)) continue;
    seen.add(domain);
    targets.push({ domain, intent: typeof intent === 'string' ? intent : '' });
  }
  return targets;
}
