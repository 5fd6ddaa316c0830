import type { Tool } from '../../tools/types.js';

export const DEFAULT_REACT_SYSTEM_PROMPT =
  'You are a careful assistant who solves tasks step by step, using tools to look things up ' +
  'instead of guessing.';

/** The author's prompt, the text protocol, and the tools the model may name. */
export function reactInstruction(systemPrompt: string, tools: readonly Tool[]): string {
  const toolList = tools.length
    ? tools
        .map(
          (t) =>
            `- ${t.name}: ${t.description}\n  Arguments (JSON Schema): ${JSON.stringify(t.inputSchema)}`,
        )
        .join('\n')
    : '(none: answer from what you know)';
  return [
    systemPrompt.trim(),
    [
      'Work in steps. In every reply write:',
      'Thought: what you know so far and what to do next',
      'then EITHER',
      'Action: the name of one tool',
      'Action Input: its arguments as one JSON object',
      'OR, when you can answer,',
      'Final Answer: the complete answer for the user',
      '',
      'After an Action, stop. The next message will be "Observation: <the tool\'s result>".',
      'Never write an Observation yourself.',
    ].join('\n'),
    `Tools:\n${toolList}`,
  ].join('\n\n');
}

/** What the model sees after its Action. */
export const observationMessage = (observation: string): string => `Observation: ${observation}`;
