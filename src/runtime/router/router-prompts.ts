import type { AgentEntry } from '../../contracts/agent.js';
import type { ToolDeclaration } from '../../model/types.js';

export const ROUTE_TOOL = 'route';

/** One line per domain: name, description, examples (the router never sees domain tools). */
export function domainLine(name: string, entry: AgentEntry): string {
  const description =
    entry.kind === 'definition' ? entry.definition.description : entry.description;
  const examples = entry.kind === 'definition' ? (entry.definition.examples ?? []) : [];
  const firstLine = description.trim().split('\n')[0] ?? '';
  return `- ${name}: ${firstLine}${examples.length ? ` (e.g. ${examples.map((e) => `"${e}"`).join('; ')})` : ''}`;
}

export function routerInstruction(own: string | undefined, lines: readonly string[]): string {
  return [
    own?.trim(),
    `You route requests to domain agents. The domains:\n${lines.join('\n')}`,
    `Call \`${ROUTE_TOOL}\` once with the domains that should handle the request and what each should do. ` +
      'Pick only domains that are needed. If no domain is needed (small talk, a question you can answer), ' +
      'call it with no targets and put your reply in direct_answer.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function routeDeclaration(domains: readonly string[]): ToolDeclaration {
  return {
    name: ROUTE_TOOL,
    description: 'Choose the domain agents for this request.',
    parameters: {
      type: 'object',
      properties: {
        targets: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              domain: { type: 'string', enum: [...domains] },
              intent: {
                type: 'string',
                description: 'What this domain should do, in one sentence.',
              },
            },
            required: ['domain', 'intent'],
          },
        },
        direct_answer: { type: 'string', description: 'Your reply when no domain is needed.' },
      },
      required: ['targets'],
    },
  };
}

export const SYNTHESIZER_INSTRUCTION =
  'You merge answers from domain agents into one reply to the user. Use only what the domains said; ' +
  'if a domain timed out or failed, say briefly that that part is unavailable. Be concise.';

export function synthesisInput(
  query: string,
  results: ReadonlyArray<{ domain: string; content: string }>,
): string {
  return `User request: ${query}\n\nDomain answers:\n${results.map((r) => `- ${r.domain}: ${r.content}`).join('\n')}`;
}
