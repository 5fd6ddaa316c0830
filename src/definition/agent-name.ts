/** A name usable as a tool name by every provider (Gemini and OpenAI function-name rules). */
export const AGENT_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

export const AGENT_NAME_RULE =
  'must start with a letter or _ and hold only letters, digits, _ and - (at most 64)';

export const isValidAgentName = (name: string): boolean => AGENT_NAME_PATTERN.test(name);

/** `DevOps Subagent` → `DevOps-Subagent`, `powershell-5.1-expert` → `powershell-5-1-expert`. */
export function slugifyAgentName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
  if (slug === '') return 'agent';
  return /^[A-Za-z_]/.test(slug) ? slug : `_${slug}`.slice(0, 64);
}
