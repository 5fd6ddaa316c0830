import { errorAt, warningAt, type PendingIssue } from './issues.js';
import { remoteAuth } from './remote-auth.js';
import type { RemoteAgentConfig } from './types.js';

/**
 * ADK `RemoteA2aAgent`: `agent_card` names the agent card it is called
 * through. Only a URL is read (ADK also takes a local card file); anything
 * else is a warning at the field, and the agent runs as an LLM agent.
 * `auth` (Cadre's, as in a Gemini CLI remote agent: ADK passes credentials
 * in code) says which headers to send, read from the environment or files.
 */
export function adkRemote(
  data: Record<string, unknown>,
  pending: PendingIssue[],
  baseDir: string,
): RemoteAgentConfig | undefined {
  const card = data.agent_card;
  if (typeof card === 'string' && /^https?:\/\//.test(card.trim())) {
    if (data.auth === undefined || data.auth === null) return { agentCardUrl: card.trim() };
    const { auth, notes } = remoteAuth(data.auth, baseDir);
    for (const note of notes)
      pending.push(
        (note.severity === 'error' ? errorAt : warningAt)(['auth', ...note.path], note.message),
      );
    return { agentCardUrl: card.trim(), ...(auth ? { auth } : {}) };
  }
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
