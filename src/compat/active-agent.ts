import { extname, resolve } from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';
import { loadDefinition } from '../definition/lazy-load.js';
import type { LoadOptions } from '../definition/load-definition.js';
import type { AgentDefinition } from '../definition/types.js';
import type { AgentFormatConfig } from './agent-format-config.js';

/** An agent-format function: `run_agent(prompt, chat_history, memory, config)`. */
export type AgentFormatFunction = (
  prompt: string,
  chatHistory?: string,
  memory?: string,
  config?: AgentFormatConfig,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

export type ActiveAgent =
  | { kind: 'definition'; definition: AgentDefinition }
  | { kind: 'function'; name: string; run: AgentFormatFunction };

const MODULES = new Set(['.ts', '.mts', '.js', '.mjs', '.cjs']);

/**
 * What `ACTIVE_AGENT_PATH` points at: a definition file (YAML, JSON,
 * Markdown, TS/JS `defineAgent`), or a module exporting an agent-format
 * `runAgent` / `run_agent` function.
 */
export async function loadActiveAgent(
  path: string,
  options: LoadOptions & { cwd: string },
): Promise<ActiveAgent> {
  const file = resolve(options.cwd, path);
  if (MODULES.has(extname(file))) {
    const fn = await agentFunction(file);
    if (fn) return fn;
  }
  const { definition } = await loadDefinition(file, options);
  return { kind: 'definition', definition };
}

async function agentFunction(file: string): Promise<ActiveAgent | undefined> {
  const { createJiti } = await import('jiti');
  let module: Record<string, unknown>;
  try {
    module = (await createJiti(import.meta.url, { moduleCache: false }).import(file)) as Record<
      string,
      unknown
    >;
  } catch (error) {
    throw new ConfigError(
      `ACTIVE_AGENT_PATH ${file} failed to load: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
  const run = [module.runAgent, module.run_agent, module.default].find(
    (v): v is AgentFormatFunction => typeof v === 'function',
  );
  return run
    ? { kind: 'function', name: typeof module.name === 'string' ? module.name : file, run }
    : undefined;
}
