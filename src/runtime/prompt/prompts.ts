import type { Message, Part } from '../../model/types.js';
import { placeholderStyleOf } from '../../definition/placeholder-style.js';
import type { AgentDefinition } from '../../definition/types.js';
import { completionRules, type CompletionProtocol } from '../completion/completion.js';
import { PROMPT_INPUT } from './inputs.js';
import { placeholderValues } from './placeholder-values.js';
import { templateString } from './template.js';

export interface PreparedPrompt {
  systemInstruction: string;
  messages: Message[];
}

/**
 * The system instruction (author's prompt + runtime rules) and the opening
 * messages, with placeholders filled from the inputs and the run's state in
 * the definition's placeholder style. Throws ValidationError naming missing
 * placeholders before any model call.
 */
export function preparePrompt(
  definition: AgentDefinition,
  inputs: Readonly<Record<string, unknown>>,
  protocol: CompletionProtocol,
  history: readonly Message[] = [],
  memory?: string,
  state?: Readonly<Record<string, unknown>>,
): PreparedPrompt {
  const prompt = definition.promptConfig;
  const style = placeholderStyleOf(definition);
  const values = placeholderValues(definition, inputs, state);
  const fill = (text: string, field: string): string => templateString(text, values, field, style);
  const system = prompt.systemPrompt ? fill(prompt.systemPrompt, 'promptConfig.systemPrompt') : '';
  const messages: Message[] = (prompt.initialMessages ?? []).map((message, i) => ({
    role: message.role,
    parts: message.parts.map((part, j): Part =>
      part.kind === 'text'
        ? {
            ...part,
            text: fill(part.text, `promptConfig.initialMessages.${i}.parts.${j}`),
          }
        : part,
    ),
  }));
  // ADK include_contents: none: the agent works from its own query alone.
  if (prompt.history !== 'none') messages.push(...history);
  const query =
    prompt.query !== undefined
      ? fill(prompt.query, 'promptConfig.query')
      : defaultQuery(definition, inputs);
  if (query !== undefined) messages.push({ role: 'user', parts: [{ kind: 'text', text: query }] });
  if (messages.at(-1)?.role !== 'user') {
    messages.push({ role: 'user', parts: [{ kind: 'text', text: 'Get started.' }] });
  }
  return {
    systemInstruction: [
      prompt.staticSystemPrompt?.trim() ?? '',
      system.trim(),
      memory ? `# What you know about the user\n${memory.trim()}` : '',
      completionRules(protocol),
    ]
      .filter(Boolean)
      .join('\n\n'),
    messages,
  };
}

/**
 * Chat agents take the user's message as the query; structured inputs are
 * listed. Cadre's own text: never templated, whatever the definition's style.
 */
function defaultQuery(
  definition: AgentDefinition,
  inputs: Readonly<Record<string, unknown>>,
): string | undefined {
  const message = inputs[PROMPT_INPUT];
  if (!definition.inputConfig && typeof message === 'string') return message;
  const entries = Object.entries(inputs);
  if (entries.length === 0) return undefined;
  return `Inputs:\n${entries.map(([k, v]) => `- ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n')}`;
}
