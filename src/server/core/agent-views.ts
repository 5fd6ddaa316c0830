import type { RegisteredAgent } from '../../agents/agent-registry.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { AgentView } from '../run-service-types.js';
import { inputFields } from './agent-inputs.js';
import { ASSISTANT_EXAMPLES } from './assistant-examples.js';
import { SERVER_ASSISTANT } from '../../agents/default-assistant.js';
import type { ServerContext } from './server-context.js';

/**
 * `GET /api/agents`: the server's default agent first (`default: true`), then
 * every agent a run may name. A default loaded from a file of an agent folder
 * (ACTIVE_AGENT_PATH) is that folder's entry, marked; any other default is
 * listed with origin `default`.
 */
export function agentViews(ctx: Pick<ServerContext, 'agents' | 'defaultAgent'>): AgentView[] {
  const fallback = ctx.defaultAgent;
  const registered = ctx.agents.list();
  const own = registered.find((agent) => isDefault(agent, fallback));
  const first: AgentView = own ? registeredView(own) : definitionView(fallback, 'default');
  return [
    { ...first, default: true },
    ...registered.filter((agent) => agent !== own).map(registeredView),
  ];
}

function registeredView(agent: RegisteredAgent): AgentView {
  return agent.entry.kind === 'definition'
    ? definitionView(agent.entry.definition, agent.origin)
    : { name: agent.entry.name, description: agent.entry.description, origin: agent.origin };
}

function definitionView(definition: AgentDefinition, origin: string): AgentView {
  const inputs = inputFields(definition);
  const output = outputSchemaOf(definition);
  // The built-in assistant's definition is shared with the scripted demo; its examples live here.
  const examples =
    definition.examples ?? (definition === SERVER_ASSISTANT ? [...ASSISTANT_EXAMPLES] : undefined);
  return {
    name: definition.name,
    description: definition.description,
    origin,
    ...(definition.displayName ? { displayName: definition.displayName } : {}),
    ...(examples?.length ? { examples } : {}),
    ...(inputs ? { inputs } : {}),
    tools: [...definition.toolConfig.tools],
    ...(output ? { outputSchema: output } : {}),
  };
}

/** The answer's JSON Schema as a client would send it back in `response_format`. */
function outputSchemaOf(definition: AgentDefinition): Record<string, unknown> | undefined {
  const schema = definition.outputConfig?.schema;
  if (schema === undefined) return undefined;
  const json = schema.kind === 'json_schema' ? schema.schema : schema.jsonSchema;
  return json as Record<string, unknown> | undefined;
}

/** The registry's copy of the default agent: same name, loaded from the same file. */
function isDefault(agent: RegisteredAgent, fallback: AgentDefinition): boolean {
  if (agent.entry.kind !== 'definition') return false;
  const { definition } = agent.entry;
  if (definition === fallback) return true;
  const file = fallback.source?.file;
  return (
    definition.name === fallback.name && file !== undefined && definition.source?.file === file
  );
}
