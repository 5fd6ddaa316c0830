import type { AgentEntry, AgentLookup } from '../contracts/agent.js';
import type { AgentDefinition } from '../definition/types.js';
import type { ModelRequest } from '../model/types.js';

/** A test agent whose system prompt names it (`ROLE:<name>`), so a scripted model can tell who asks. */
export const roleAgent = (
  name: string,
  tools: string[],
  extra: Partial<AgentDefinition> = {},
): AgentDefinition => ({
  name,
  description: name,
  promptConfig: { systemPrompt: `ROLE:${name}` },
  toolConfig: { tools },
  ...extra,
});

/** The agents a run may spawn, looked up by name. */
export const agentCatalog = (...defs: AgentDefinition[]): AgentLookup => {
  const map = new Map<string, AgentEntry>(
    defs.map((d) => [d.name, { kind: 'definition', definition: d }]),
  );
  return { get: (n) => map.get(n), names: () => [...map.keys()] };
};

/** Who sent a model request: `router` for a routing call, else the `ROLE:` name (`synth` for none). */
export const requestRole = (r: ModelRequest): string =>
  r.tools.some((t) => t.name === 'route')
    ? 'router'
    : (/ROLE:(\w+)/.exec(r.systemInstruction ?? '')?.[1] ?? 'synth');
