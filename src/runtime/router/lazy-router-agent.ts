import type { Agent, AgentContext, AgentInput, AgentLookup } from '../../contracts/agent.js';
import type { AgentDefinition, RouterConfig } from '../../definition/types.js';
import type { AgentEventInput } from '../../events/types.js';
import type { RouterOptions } from './router-agent.js';

/**
 * The public `RouterAgent`: same constructor and surface as `LoadedRouterAgent` in
 * router-agent.ts, which (with its prompts) is loaded on the first
 * `execute`, so importing the package does not load routing code a plain
 * run never uses.
 */
export class RouterAgent implements Agent {
  readonly name: string;
  readonly description: string;

  constructor(
    private readonly definition: AgentDefinition & { router: RouterConfig },
    private readonly agents: AgentLookup | undefined,
    private readonly options: RouterOptions = {},
  ) {
    this.name = definition.name;
    this.description = definition.description;
  }

  async *execute(input: AgentInput, ctx: AgentContext): AsyncIterable<AgentEventInput> {
    const { LoadedRouterAgent: Router } = await import('./router-agent.js');
    yield* new Router(this.definition, this.agents, this.options).execute(input, ctx);
  }
}
