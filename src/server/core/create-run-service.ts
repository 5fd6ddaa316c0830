import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { builtinAgentEntries } from '../../agents/builtin/index.js';
import { discoverAgents } from '../../agents/discover-agents.js';
import { loadActiveAgent } from '../../compat/active-agent.js';
import { cachedResolver } from '../../model/cached-resolver.js';
import { resolveModelClient } from '../../model/resolve-model.js';
import type { ModelClient } from '../../model/types.js';
import { loadPolicyFile } from '../../policy/policy-file.js';
import type { TrustLevel } from '../../policy/types.js';
import { createRuntime } from '../../runtime/runtime.js';
import { TASK_TOOL } from '../../runtime/subagents/task-tool.js';
import type { Store } from '../../store/types.js';
import { builtinTools } from '../../tools/builtin/index.js';
import { createCalendarEventTool } from '../../tools/calendar/calendar-event-create.js';
import { createGmailSendTool } from '../../tools/mail/gmail-send.js';
import type { RunService } from '../run-service-types.js';
import { SERVER_ASSISTANT } from './default-assistant.js';
import { readViews } from './read-views.js';
import { resolveApproval } from './resolve-approval.js';
import { runPrompt } from './run-prompt.js';
import type { ServerContext } from './server-context.js';

export interface RunServiceOptions {
  store: Store;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `cadre serve --model`: used when an agent names no model. */
  model?: string;
  /** A client to use for every agent (tests with scripted models). */
  modelClient?: ModelClient;
  /** Agent folders besides ./agents and .cadre/agents. */
  agentDirs?: string[];
  /** A YAML policy file (rules, trust). */
  policyFile?: string;
}

/**
 * The server core: agents, tools, policy and the store, wired once. Runs
 * found mid-flight from an earlier process are marked failed at start;
 * pending approvals survive.
 */
export async function createRunService(options: RunServiceOptions): Promise<RunService> {
  const { store, cwd, env } = options;
  await store.recoverInterrupted();
  const tools = [...builtinTools, createGmailSendTool({ env }), createCalendarEventTool({ env })];
  const { registry } = await discoverAgents({
    cwd,
    knownTools: [...tools.map((t) => t.name), TASK_TOOL],
    builtins: builtinAgentEntries(),
    ...(options.agentDirs ? { folders: options.agentDirs } : {}),
    ...(env.HOME ? { home: env.HOME } : {}),
  });
  const names = new Set(registry.names());
  const active = env.ACTIVE_AGENT_PATH
    ? await loadActiveAgent(env.ACTIVE_AGENT_PATH, {
        cwd,
        knownTools: tools.map((t) => t.name),
        isKnownAgent: (n) => names.has(n),
      })
    : undefined;
  const policy = options.policyFile
    ? await loadPolicyFile(resolve(cwd, options.policyFile))
    : undefined;
  const resolveOnce = cachedResolver((model: string) => resolveModelClient(model, env, { cwd }));
  const defaultModel = options.model ?? env.CADRE_MODEL;
  const ctx: ServerContext = {
    store,
    agents: registry,
    tools,
    resolveModel: (name) =>
      options.modelClient
        ? { client: options.modelClient, model: name }
        : resolveOnce(options.model ?? name),
    ...(defaultModel ? { defaultModel } : {}),
    runtime: await createRuntime(),
    defaultAgent: active?.kind === 'definition' ? active.definition : SERVER_ASSISTANT,
    policy: {
      rules: policy?.rules ?? [],
      sideEffects: env.CADRE_SIDE_EFFECTS === 'off' ? 'off' : 'on',
      ...((policy?.trust ?? env.CADRE_TRUST)
        ? { trust: (policy?.trust ?? env.CADRE_TRUST) as TrustLevel }
        : {}),
    },
    workspace: await realpath(cwd),
  };
  return {
    run: (request, hooks) => runPrompt(ctx, request, hooks),
    resolveApproval: (request, hooks) => resolveApproval(ctx, request, hooks),
    ...readViews(ctx),
    close: () => Promise.resolve(),
  };
}
