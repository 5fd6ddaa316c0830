import type { AgentView } from '../../server/run-service-types.js';
import { PROMPT_SCHEMA } from './definition-tool.js';
import { inputViewSchema } from './service-input-schema.js';

/**
 * The agents `cadre serve` offers over MCP (as tools, prompts and resources
 * alike): not its built-ins or code agents (the service runs definitions
 * only), nor its own default agent, which is in no agent folder.
 */
export const servedAgent = (agent: AgentView): boolean =>
  agent.origin !== 'builtin' && agent.origin !== 'code' && agent.origin !== 'default';

/** What a served agent takes: its declared inputs, else `{ prompt }`. */
export const servedInputSchema = (agent: AgentView) =>
  agent.inputs?.length ? inputViewSchema(agent.inputs) : PROMPT_SCHEMA;
