import type { AgentInputView, AgentView } from '../../server/run-service-types.js';

/** What of an agent its card's skill is made from: only what the server already lists publicly. */
export type SkillSource = Pick<
  AgentView,
  'name' | 'description' | 'displayName' | 'examples' | 'inputs'
>;

const inputLine = (input: AgentInputView): string =>
  `- ${input.name} (${input.type}${input.required ? ', required' : ''})${
    input.description ? `: ${input.description}` : ''
  }`;

/**
 * The agent as the one skill its card offers (in the card's JSON shape):
 * its description, and for an agent with structured inputs, how to send
 * them (a data part whose fields are the inputs) and what each is. Tags are
 * the agent's name and its inputs' names, never empty, since v0.3 readers
 * require them.
 */
export function agentSkill(agent: SkillSource): Record<string, unknown> {
  const inputs = agent.inputs ?? [];
  const description =
    inputs.length === 0
      ? agent.description
      : [
          agent.description,
          'Inputs (send a data part whose fields are these; a text part is the prompt):',
          ...inputs.map(inputLine),
        ]
          .filter(Boolean)
          .join('\n');
  return {
    id: agent.name,
    name: agent.displayName ?? agent.name,
    description,
    tags: [agent.name, ...inputs.map((input) => input.name)],
    examples: agent.examples ?? [],
    inputModes: inputs.length > 0 ? ['application/json', 'text/plain'] : ['text/plain'],
    outputModes: ['text/plain'],
  };
}
