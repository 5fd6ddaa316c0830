import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { NotFoundError } from '../../errors/cadre-error.js';
import type { AgentView, RunService } from '../../server/run-service-types.js';
import { inputsText } from '../../server/http/run-request.js';
import {
  agentNameOf,
  agentUri,
  promptArguments,
  runUriOf,
  typedArguments,
  type AgentContent,
} from './agent-content.js';
import { servedAgent, servedInputSchema } from './served-agents.js';

const JSON_TYPE = 'application/json';

/**
 * What `/mcp` under `cadre serve` offers besides tools, for one user: the
 * agents (as prompts and as `cadre://agents/<name>`), and that user's own
 * runs as `cadre://runs/<id>` (summary, status, events) and
 * `cadre://runs/<id>/trajectory` where the run was recorded. Every run read
 * goes through the service with the user's id, so another user's run is not found.
 */
export function serviceAgentContent(service: RunService, userId: string): AgentContent {
  const agents = async (): Promise<AgentView[]> => (await service.listAgents()).filter(servedAgent);
  const find = async (name: string) => (await agents()).find((agent) => agent.name === name);

  return {
    prompts: {
      list: async () =>
        (await agents()).map((agent) => ({
          name: agent.name,
          description: agent.description,
          ...(agent.displayName ? { title: agent.displayName } : {}),
          arguments: promptArguments(servedInputSchema(agent)),
        })),
      async get(name, args): Promise<GetPromptResult | undefined> {
        const agent = await find(name);
        if (!agent) return undefined;
        // The service runs an agent on a message; its system prompt stays on the server.
        const inputs = typedArguments(servedInputSchema(agent), args);
        const text = agent.inputs?.length ? inputsText(inputs) : String(inputs.prompt ?? '');
        return {
          description: agent.description,
          messages: [{ role: 'user', content: { type: 'text', text } }],
        };
      },
    },
    resources: {
      list: async () =>
        (await agents()).map((agent) => ({
          uri: agentUri(agent.name),
          name: agent.name,
          description: agent.description,
          mimeType: JSON_TYPE,
        })),
      templates: [
        {
          uriTemplate: 'cadre://agents/{name}',
          name: 'agent',
          description: 'An agent the server serves: name, description, inputs and tools (JSON).',
          mimeType: JSON_TYPE,
        },
        {
          uriTemplate: 'cadre://runs/{runId}',
          name: 'run',
          description:
            'One of your runs: status, summary, actions, approvals and events (JSON). A tool result names its run in _meta["cadre/runId"].',
          mimeType: JSON_TYPE,
        },
        {
          uriTemplate: 'cadre://runs/{runId}/trajectory',
          name: 'trajectory',
          description: 'A recorded run of yours, step by step (JSON).',
          mimeType: JSON_TYPE,
        },
      ],
      async read(uri, signal) {
        const agentName = agentNameOf(uri);
        if (agentName !== undefined) {
          const agent = await find(agentName);
          return agent ? jsonContents(uri, agent) : undefined;
        }
        const run = runUriOf(uri);
        if (!run) return undefined;
        if (run.part === 'run') {
          const view = await service.getRun(userId, run.runId, signal);
          if (!view) return undefined;
          return jsonContents(uri, {
            runId: view.run.id,
            agent: view.run.agent,
            status: view.run.status,
            summary: view.run.summary,
            ...view,
          });
        }
        try {
          const trajectory = await service.trajectory(userId, run.runId, signal);
          return trajectory ? jsonContents(uri, trajectory) : undefined;
        } catch (error) {
          // The run is the user's but was not recorded: there is no trajectory to read.
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }
      },
    },
  };
}

const jsonContents = (uri: string, value: unknown) => ({
  contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(value, null, 2) }],
});
