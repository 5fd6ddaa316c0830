import type { Message, Part } from '../model/types.js';
import type { AgentDefinition } from '../spec/types.js';
import { completionRules, type CompletionProtocol } from './completion.js';
import { PROMPT_INPUT } from './inputs.js';
import { templateString } from './template.js';

export interface PreparedPrompt {
  systemInstruction: string;
  messages: Message[];
}

/**
 * The system instruction (author's prompt + runtime rules) and the opening
 * messages, with `${input}` placeholders filled. Throws ValidationError
 * naming missing keys before any model call.
 */
export function preparePrompt(
  definition: AgentDefinition,
  inputs: Readonly<Record<string, unknown>>,
  protocol: CompletionProtocol,
  history: readonly Message[] = [],
  memory?: string,
): PreparedPrompt {
  const prompt = definition.promptConfig;
  const system = prompt.systemPrompt
    ? templateString(prompt.systemPrompt, inputs, 'promptConfig.systemPrompt')
    : '';
  const messages: Message[] = (prompt.initialMessages ?? []).map((message, i) => ({
    role: message.role,
    parts: message.parts.map((part, j): Part =>
      part.kind === 'text'
        ? {
            ...part,
            text: templateString(part.text, inputs, `promptConfig.initialMessages.${i}.parts.${j}`),
          }
        : part,
    ),
  }));
  messages.push(...history);
  const query = prompt.query ?? defaultQuery(definition, inputs);
  if (query !== undefined) {
    messages.push({
      role: 'user',
      parts: [{ kind: 'text', text: templateString(query, inputs, 'promptConfig.query') }],
    });
  }
  if (messages.at(-1)?.role !== 'user') {
    messages.push({ role: 'user', parts: [{ kind: 'text', text: 'Get started.' }] });
  }
  return {
    systemInstruction: [
      system.trim(),
      memory ? `# What you know about the user\n${memory.trim()}` : '',
      completionRules(protocol),
    ]
      .filter(Boolean)
      .join('\n\n'),
    messages,
  };
}

/** Chat agents take the user's message as the query; structured inputs are listed. */
function defaultQuery(
  definition: AgentDefinition,
  inputs: Readonly<Record<string, unknown>>,
): string | undefined {
  if (!definition.inputConfig && typeof inputs[PROMPT_INPUT] === 'string') return '${prompt}';
  const entries = Object.entries(inputs);
  if (entries.length === 0) return undefined;
  return `Inputs:\n${entries.map(([k, v]) => `- ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n')}`;
}
