import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { GetPromptResult, PromptMessage } from '@modelcontextprotocol/sdk/types.js';
import type { AgentRegistry, RegisteredAgent } from '../../agents/agent-registry.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { AgentDefinition } from '../../definition/types.js';
import { completionRules } from '../../runtime/completion/completion.js';
import { inputsJsonSchema } from '../../runtime/prompt/inputs.js';
import { preparePrompt } from '../../runtime/prompt/prompts.js';
import {
  agentNameOf,
  agentUri,
  promptArguments,
  typedArguments,
  type AgentContent,
} from './agent-content.js';

const MIME_BY_EXTENSION: Record<string, string> = {
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.json': 'application/json',
  '.md': 'text/markdown',
  '.toml': 'application/toml',
};

/**
 * The registry's definitions as prompts (each agent's opening messages) and
 * as resources (`cadre://agents/<name>`: the file it was loaded from, or the
 * definition as JSON). Code agents have no definition to show.
 */
export function localAgentContent(agents: AgentRegistry, workspace: string): AgentContent {
  const definitions = (): Array<{ definition: AgentDefinition; agent: RegisteredAgent }> =>
    agents
      .list()
      .flatMap((agent) =>
        agent.entry.kind === 'definition' ? [{ definition: agent.entry.definition, agent }] : [],
      );
  const find = (name: string) => definitions().find((d) => d.definition.name === name);

  return {
    prompts: {
      list: () =>
        Promise.resolve(
          definitions().map(({ definition }) => ({
            name: definition.name,
            description: definition.description,
            ...(definition.displayName ? { title: definition.displayName } : {}),
            arguments: promptArguments(inputsJsonSchema(definition)),
          })),
        ),
      // Async so a refusal (a missing argument) is a rejected promise, not a throw.
      get: async (name, args) => {
        const found = find(name);
        return found ? openingPrompt(found.definition, args) : undefined;
      },
    },
    resources: {
      list: () =>
        Promise.resolve(
          definitions().map(({ definition, agent }) => ({
            uri: agentUri(definition.name),
            name: definition.name,
            description: definition.description,
            mimeType: mimeOf(agent.file),
          })),
        ),
      templates: [
        {
          uriTemplate: 'cadre://agents/{name}',
          name: 'agent',
          description: 'An agent definition: its file as written, or its definition as JSON.',
        },
      ],
      async read(uri) {
        const name = agentNameOf(uri);
        const found = name === undefined ? undefined : find(name);
        if (!found) return undefined;
        const { definition, agent } = found;
        // The file as its author wrote it; a definition built in code is shown as JSON.
        const text = agent.file
          ? await readFile(resolve(workspace, agent.file), 'utf8')
          : JSON.stringify(definition, null, 2);
        return { contents: [{ uri, mimeType: mimeOf(agent.file), text }] };
      },
    },
  };
}

const mimeOf = (file: string | undefined): string =>
  file ? (MIME_BY_EXTENSION[extname(file).toLowerCase()] ?? 'text/plain') : 'application/json';

/**
 * What would start the agent: its system prompt (MCP prompts have no system
 * role, so it is the first user message) and its opening messages with the
 * query filled from the arguments. Cadre's own completion rules are left out:
 * they belong to Cadre's loop, not to the client's model.
 */
function openingPrompt(definition: AgentDefinition, args: Record<string, string>): GetPromptResult {
  const schema = inputsJsonSchema(definition);
  const missing = promptArguments(schema).filter((arg) => arg.required && !(arg.name in args));
  if (missing.length > 0)
    throw new ValidationError(
      missing.map((arg) => ({ path: `arguments.${arg.name}`, message: 'is required' })),
    );
  const inputs = typedArguments(schema, args);
  const prepared = preparePrompt(definition, inputs, { kind: 'answer' });
  const rules = completionRules({ kind: 'answer' });
  const system = prepared.systemInstruction.endsWith(rules)
    ? prepared.systemInstruction.slice(0, -rules.length).trim()
    : prepared.systemInstruction;
  const messages: PromptMessage[] = prepared.messages.map((message) => ({
    role: message.role === 'user' ? 'user' : 'assistant',
    content: {
      type: 'text',
      text: message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('\n'),
    },
  }));
  return {
    description: definition.description,
    messages: system
      ? [{ role: 'user', content: { type: 'text', text: system } }, ...messages]
      : messages,
  };
}
