import type { RouterOptions } from '../runtime/loop/run-options.js';

/** The agent-format interface's per-call config; unknown keys are ignored. */
export interface AgentFormatConfig {
  tool_root?: string;
  only_domains?: string[];
  execution_mode?: 'async' | 'threads';
  domain_timeout_secs?: number;
  model_overrides?: { router?: string; domain?: string; synth?: string };
  [key: string]: unknown;
}

export interface ResolvedConfig {
  toolRoot?: string;
  router: RouterOptions;
  executionMode: 'async' | 'threads';
}

const list = (value: string | undefined): string[] | undefined =>
  value
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

/** Per-call config beats the environment, key by key (agent-format rule). */
export function resolveConfig(
  config: AgentFormatConfig = {},
  env: NodeJS.ProcessEnv = {},
): ResolvedConfig {
  const envTimeout = Number(env.DOMAIN_TIMEOUT_SECS);
  const timeout =
    typeof config.domain_timeout_secs === 'number'
      ? config.domain_timeout_secs
      : Number.isFinite(envTimeout) && envTimeout > 0
        ? envTimeout
        : undefined;
  const onlyDomains = Array.isArray(config.only_domains)
    ? config.only_domains
    : list(env.ONLY_DOMAINS);
  const overrides =
    typeof config.model_overrides === 'object' && config.model_overrides
      ? config.model_overrides
      : {};
  const models = {
    ...((overrides.router ?? env.ROUTER_MODEL)
      ? { router: overrides.router ?? env.ROUTER_MODEL }
      : {}),
    ...((overrides.domain ?? env.DOMAIN_MODEL)
      ? { domain: overrides.domain ?? env.DOMAIN_MODEL }
      : {}),
    ...((overrides.synth ?? env.SYNTH_MODEL) ? { synth: overrides.synth ?? env.SYNTH_MODEL } : {}),
  };
  const toolRoot = typeof config.tool_root === 'string' ? config.tool_root : env.TOOL_ROOT;
  return {
    ...(toolRoot ? { toolRoot } : {}),
    router: {
      ...(onlyDomains ? { onlyDomains } : {}),
      ...(timeout !== undefined ? { domainTimeoutSecs: timeout } : {}),
      ...(Object.keys(models).length ? { models } : {}),
      ...(config.execution_mode === 'threads' ? { executionMode: 'threads' as const } : {}),
    },
    executionMode: config.execution_mode === 'threads' ? 'threads' : 'async',
  };
}
