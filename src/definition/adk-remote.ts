import { warningAt, type PendingIssue } from './issues.js';
import type { RemoteAgentConfig } from './types.js';

/**
 * ADK `RemoteA2aAgent`: `agent_card` names the agent card it is called
 * through. Only a URL is read (ADK also takes a local card file); anything
 * else is a warning at the field, and the agent runs as an LLM agent.
 */
export function adkRemote(
  data: Record<string, unknown>,
  pending: PendingIssue[],
): RemoteAgentConfig | undefined {
  const card = data.agent_card;
  if (typeof card === 'string' && /^https?:\/\//.test(card.trim()))
    return { agentCardUrl: card.trim() };
  pending.push(
    warningAt(
      card === undefined ? ['agent_class'] : ['agent_card'],
      card === undefined
        ? 'RemoteA2aAgent needs agent_card (the URL of its agent card); it runs as an LLM agent'
        : 'agent_card must be the http(s) URL of an agent card (card files are not read); it runs as an LLM agent',
    ),
  );
  return undefined;
}
