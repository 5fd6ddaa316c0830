import { realpath } from 'node:fs/promises';
import type { AgentEventInput } from '../../events/types.js';
import type { Message } from '../../model/types.js';
import type { ToolTrace } from '../../contracts/run-result.js';
import { SchemaValidator } from '../../runtime/completion/schema-validator.js';
import type { Tool } from '../../tools/types.js';
import type { Agent, AgentContext, AgentInput } from '../../contracts/agent.js';
import { modelCall, userText } from './model-call.js';
import { runAction, type ActionEnvironment } from './react-action.js';
import {
  DEFAULT_REACT_SYSTEM_PROMPT,
  observationMessage,
  reactInstruction,
} from './react-prompt.js';
import { parseReactStep } from './react-protocol.js';
import {
  checkReactOptions,
  DEFAULT_MAX_ITERATIONS,
  REACT_DESCRIPTION,
  REACT_NAME,
  type ReactConfig,
} from './react-config.js';

export { DEFAULT_MAX_ITERATIONS, REACT_DESCRIPTION, REACT_NAME, type ReactConfig };

/**
 * ReAct over a text protocol, so it works with any model: each iteration is
 * one model call and at most one tool call, whose result goes back as an
 * Observation.
 */
export class ReactAgent implements Agent {
  readonly name = REACT_NAME;
  readonly description = REACT_DESCRIPTION;
  private readonly config: ReactConfig;
  private readonly tools: ReadonlyMap<string, Tool>;

  constructor(options: Partial<ReactConfig> = {}) {
    this.config = {
      maxIterations: DEFAULT_MAX_ITERATIONS,
      tools: [],
      systemPrompt: DEFAULT_REACT_SYSTEM_PROMPT,
      ...options,
    };
    checkReactOptions(this.config);
    this.tools = new Map(this.config.tools.map((t) => [t.name, t]));
  }

  async *execute(input: AgentInput, ctx: AgentContext): AsyncIterable<AgentEventInput> {
    const { maxIterations } = this.config;
    const offered = this.config.tools.filter((t) => !t.sideEffect);
    const systemInstruction = reactInstruction(this.config.systemPrompt, offered);
    const question = input.memory ? `${input.prompt}\n\nContext:\n${input.memory}` : input.prompt;
    const messages: Message[] = [...(input.history ?? []), userText(question)];
    const traces: ToolTrace[] = [];
    const env = this.environment(ctx);
    yield {
      type: 'react_started',
      message: `Working on: ${input.prompt}`,
      data: {
        query: input.prompt,
        tools: offered.map((t) => t.name),
        max_iterations: maxIterations,
      },
    };
    for (let iteration = 1; iteration <= maxIterations; iteration++) {
      ctx.signal.throwIfAborted();
      const reply = yield* modelCall(
        ctx,
        {
          model: this.config.model ?? ctx.modelName,
          systemInstruction,
          messages,
          tools: [],
          config: {},
        },
        { label: `Iteration ${iteration}`, data: { iteration } },
      );
      messages.push({
        role: 'model',
        parts: [{ kind: 'text', text: reply.text || '(empty reply)' }],
      });
      const step = parseReactStep(reply.text);
      if (step.thought) {
        yield {
          type: 'react_thought',
          message: step.thought,
          data: { iteration, thought: step.thought },
        };
      }
      let observation: string;
      switch (step.kind) {
        case 'final_answer':
          yield {
            type: 'react_complete',
            message: `Answered after ${iteration} iteration${iteration === 1 ? '' : 's'}`,
            data: { iteration, answer: step.answer },
          };
          yield { type: 'final_result', message: 'Done', data: { content: step.answer, traces } };
          return;
        case 'action': {
          yield {
            type: 'react_action',
            message: `${step.tool} ${step.input}`.trim(),
            data: { iteration, tool: step.tool, input: step.input },
          };
          const outcome = await runAction(step.tool, step.input, env);
          if (outcome.trace) traces.push(outcome.trace);
          observation = outcome.observation;
          break;
        }
        case 'malformed':
          observation = step.problem;
          break;
        default:
          return step satisfies never;
      }
      yield {
        type: 'react_observation',
        message: firstLine(observation),
        data: { iteration, observation },
      };
      messages.push(userText(observationMessage(observation)));
    }
    yield {
      type: 'react_max_iterations',
      message: `No final answer after ${maxIterations} iterations`,
      data: { iterations: maxIterations },
    };
    yield {
      type: 'final_result',
      message: 'Stopped at the iteration limit',
      data: {
        content: `I stopped after ${maxIterations} iterations without reaching a final answer.`,
        output: { incomplete: true, reason: 'max_iterations', iterations: maxIterations },
        traces,
      },
    };
  }

  /** Ajv and the workspace's real path load on the first tool call, once per run. */
  private environment(ctx: AgentContext): ActionEnvironment {
    let validator: Promise<SchemaValidator> | undefined;
    let workspace: Promise<string> | undefined;
    return {
      tools: this.tools,
      validator: () => (validator ??= SchemaValidator.create()),
      toolContext: async () => ({
        runId: ctx.runId,
        execution: ctx.execution,
        signal: ctx.signal,
        workspace: await (workspace ??= realpath(this.config.workspace ?? ctx.workspace)),
        emit: ctx.emit,
      }),
    };
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
