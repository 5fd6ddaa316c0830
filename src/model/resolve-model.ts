/**
 * Picks the provider from the model string and the environment:
 * `openai:<id>` → OpenAI (or a compatible server at OPENAI_BASE_URL),
 * `ollama:<id>` → Ollama's OpenAI-compatible endpoint, `anthropic:<id>` →
 * Claude; bare Claude names (`claude-*`, `sonnet`, `opus`, `haiku`, see
 * claude-models.ts) → Claude when ANTHROPIC_API_KEY is set; bare OpenAI ids
 * (`gpt-*`, `o3`, …) → OpenAI when OPENAI_API_KEY or OPENAI_BASE_URL is set,
 * else a setup error; anything else → Gemini (`gemini:` prefix optional). SDKs load only when first used.
 */
import { ConfigError } from '../errors/index.js';
import type { ModelClient } from './types.js';
import type { AnthropicClientOptions } from './anthropic-client.js';
import { claudeModelId } from './claude-models.js';
import type { GeminiClientOptions } from './gemini-client.js';
import { acceptsImages, projectImageSupport } from './image-support.js';
import { lazyClient } from './lazy-client.js';
import type { OpenAIClientOptions } from './openai-client.js';
import { loadScriptedModel } from './scripted-file.js';
import { modelsDir, parseLocalModel } from './local-model-ref.js';
import type { RetryPolicy } from './retry.js';
import { textOnlyClient } from './text-only-client.js';

export type ModelProvider = 'gemini' | 'openai' | 'ollama' | 'anthropic' | 'scripted' | 'local';

export type ModelEnv = Readonly<Record<string, string | undefined>>;

const DEFAULT_OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

const PREFIXES: Record<string, ModelProvider> = {
  gemini: 'gemini',
  openai: 'openai',
  ollama: 'ollama',
  anthropic: 'anthropic',
  scripted: 'scripted',
  local: 'local',
};

export interface ParsedModel {
  provider: ModelProvider;
  /** The id the provider knows, prefix removed: `gpt-4.1`, `qwen3:8b`. */
  model: string;
}

export interface ResolveOverrides {
  /** Beats the environment's key for the chosen provider. */
  apiKey?: string;
  /** Beats the environment's base URL for the chosen provider. */
  baseUrl?: string;
  retry?: RetryPolicy;
  /** The project folder: `scripted:<file>` paths are relative to it, and its `.cadre/models.json` is read. */
  cwd?: string;
}

export interface ResolvedModel {
  client: ModelClient;
  model: string;
  provider: ModelProvider;
}

/**
 * `openai:gpt-4.1` → openai/gpt-4.1; `ollama:qwen3:8b` → ollama/qwen3:8b;
 * `anthropic:sonnet` → anthropic/claude-sonnet-…; `gemini-2.5-flash` → gemini.
 * Syntax only: bare Claude names are routed by `routeModel`, which knows the environment.
 */
export function parseModelString(modelString: string): ParsedModel {
  const text = modelString.trim();
  const match = /^([a-z][a-z0-9_-]*):(.*)$/i.exec(text);
  if (!match) {
    if (text === '') throw new ConfigError(`No model given. ${setupHint()}`);
    return { provider: 'gemini', model: text };
  }
  const prefix = (match[1] ?? '').toLowerCase();
  const model = (match[2] ?? '').trim();
  const provider = PREFIXES[prefix];
  if (!provider) {
    throw new ConfigError(
      `Unknown model provider "${prefix}" in "${text}": use gemini-<id>, openai:<id>, ollama:<id>, anthropic:<id>, local:<model.gguf> or scripted:<turns.json>. ${setupHint()}`,
    );
  }
  if (model === '')
    throw new ConfigError(`Model "${text}" names no model after "${prefix}:". ${setupHint()}`);
  if (provider === 'anthropic') return { provider, model: claudeModelId(model) ?? model };
  return { provider, model };
}

/**
 * The provider a model string goes to in this environment: a bare Claude
 * name goes to Anthropic when ANTHROPIC_API_KEY is set, and is a setup
 * error otherwise (Gemini cannot serve it); everything else as parsed.
 */
export function routeModel(modelString: string, env: ModelEnv = process.env): ParsedModel {
  const parsed = parseModelString(modelString);
  const claude =
    parsed.provider === 'gemini' && !hasPrefix(modelString)
      ? claudeModelId(modelString)
      : undefined;
  if (claude === undefined) return routeOpenAIName(modelString, parsed, env);
  if (!read(env, 'ANTHROPIC_API_KEY'))
    throw unreachable(
      modelString,
      `"${modelString.trim()}" is a Claude model and needs ANTHROPIC_API_KEY`,
    );
  return { provider: 'anthropic', model: claude };
}

/**
 * A bare OpenAI id (`gpt-5`, `o3`, `chatgpt-4o-latest`) goes to OpenAI when
 * OPENAI_API_KEY or OPENAI_BASE_URL is set, as Claude names go to Anthropic;
 * otherwise it is a setup error saying which providers could serve it, as
 * Gemini cannot.
 */
function routeOpenAIName(modelString: string, parsed: ParsedModel, env: ModelEnv): ParsedModel {
  const id = modelString.trim();
  if (parsed.provider !== 'gemini' || hasPrefix(id) || !isOpenAIName(id)) return parsed;
  if (read(env, 'OPENAI_API_KEY') || read(env, 'OPENAI_BASE_URL'))
    return { provider: 'openai', model: id };
  throw new ConfigError(
    `No configured provider serves "${id}": it is an OpenAI model name, and Gemini cannot serve it. ` +
      `Set OPENAI_API_KEY to reach it as openai:${id} (or OPENAI_BASE_URL for a compatible server such as vLLM), ` +
      `or use ollama:${id} for an Ollama server that has it (OLLAMA_BASE_URL, default ${DEFAULT_OLLAMA_BASE_URL}).`,
  );
}

/** `gpt-5`, `o3`, `chatgpt-4o-latest`: names only OpenAI's API serves. */
const isOpenAIName = (id: string): boolean => /^(gpt-|chatgpt-|o\d)/i.test(id);

/**
 * Whether a model string goes to OpenAI's Chat Completions API (or a
 * compatible server): `openai:` / `ollama:` prefixed, or a bare OpenAI id.
 * Syntax only; a name that does not parse is not.
 */
export function isOpenAIModel(modelString: string): boolean {
  try {
    const parsed = parseModelString(modelString);
    if (parsed.provider === 'openai' || parsed.provider === 'ollama') return true;
    return parsed.provider === 'gemini' && isOpenAIName(parsed.model);
  } catch {
    return false;
  }
}

const hasPrefix = (modelString: string): boolean => /^[a-z][a-z0-9_-]*:/i.test(modelString.trim());

/**
 * The client for a model string in this environment. A model that takes no
 * images (the built-in list, or `"images": false` in the project's
 * `.cadre/models.json` under `overrides.cwd`) gets a note in place of each
 * tool image.
 */
export function resolveModelClient(
  modelString: string,
  env: ModelEnv = process.env,
  overrides: ResolveOverrides = {},
): ResolvedModel {
  const resolved = providerClient(modelString, env, overrides);
  if (resolved.provider === 'scripted') return resolved;
  // A local model reads text only: tool images become a note.
  if (resolved.provider === 'local')
    return { ...resolved, client: textOnlyClient(resolved.client) };
  return acceptsImages(resolved.model, projectImageSupport(overrides.cwd))
    ? resolved
    : { ...resolved, client: textOnlyClient(resolved.client) };
}

function providerClient(
  modelString: string,
  env: ModelEnv,
  overrides: ResolveOverrides,
): ResolvedModel {
  const { provider, model } = routeModel(modelString, env);
  const retry = overrides.retry;
  if (provider === 'scripted')
    return { client: loadScriptedModel(model, overrides.cwd), model, provider };
  if (provider === 'local')
    return { client: localModel(model, env, overrides.cwd), model, provider };
  if (provider === 'ollama') {
    const baseUrl = overrides.baseUrl ?? read(env, 'OLLAMA_BASE_URL') ?? DEFAULT_OLLAMA_BASE_URL;
    // Ollama ignores the key, but the SDK insists on one.
    const client = openAIClient({
      apiKey: overrides.apiKey ?? 'ollama',
      baseUrl,
      provider: 'ollama',
      maxTokensParam: 'max_tokens',
      retry,
    });
    return { client, model, provider };
  }
  if (provider === 'anthropic') {
    const apiKey = overrides.apiKey ?? read(env, 'ANTHROPIC_API_KEY');
    const baseUrl = overrides.baseUrl ?? read(env, 'ANTHROPIC_BASE_URL');
    if (!apiKey && !baseUrl)
      throw unreachable(
        modelString,
        'Anthropic needs ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for a proxy that adds the key)',
      );
    const client = anthropicClient({ apiKey: apiKey ?? 'not-needed', baseUrl, retry });
    return { client, model, provider };
  }
  if (provider === 'openai') {
    const apiKey = overrides.apiKey ?? read(env, 'OPENAI_API_KEY');
    const baseUrl = overrides.baseUrl ?? read(env, 'OPENAI_BASE_URL');
    if (!apiKey && !baseUrl)
      throw unreachable(
        modelString,
        'OpenAI needs OPENAI_API_KEY, or OPENAI_BASE_URL for a compatible server',
      );
    // Local compatible servers (vLLM, llama.cpp) often need no key; the SDK still wants one.
    const client = openAIClient({ apiKey: apiKey ?? 'not-needed', baseUrl, retry });
    return { client, model, provider };
  }
  const apiKey = overrides.apiKey ?? read(env, 'GEMINI_API_KEY') ?? read(env, 'GOOGLE_API_KEY');
  const baseUrl = overrides.baseUrl ?? read(env, 'GOOGLE_GEMINI_BASE_URL');
  if (!apiKey && !baseUrl)
    throw unreachable(modelString, 'Gemini needs GEMINI_API_KEY (or GOOGLE_API_KEY)');
  // With only a base URL (a proxy that adds the key), send a placeholder key.
  const client = geminiClient({ apiKey: apiKey ?? 'not-needed', baseUrl, retry });
  return { client, model, provider };
}

// Each provider's client code (and its SDK) loads with the first turn it serves.
const geminiClient = (options: GeminiClientOptions): ModelClient =>
  lazyClient('gemini', async () => new (await import('./gemini-client.js')).GeminiClient(options));
const openAIClient = (options: OpenAIClientOptions): ModelClient =>
  lazyClient(
    options.provider ?? 'openai',
    async () => new (await import('./openai-client.js')).OpenAIClient(options),
  );
const anthropicClient = (options: AnthropicClientOptions): ModelClient =>
  lazyClient(
    'anthropic',
    async () => new (await import('./anthropic-client.js')).AnthropicClient(options),
  );
/** A spec that does not parse is a setup error now, not at the first turn. */
function localModel(spec: string, env: ModelEnv, cwd: string | undefined): ModelClient {
  parseLocalModel(spec, cwd);
  return lazyClient('local', async () =>
    (await import('./local-client-for.js')).localClient(spec, env, cwd),
  );
}

/** What each provider needs and whether it is set (never the values of keys). */
export function describeModelSetup(env: ModelEnv = process.env): string {
  const state = (...names: string[]): string =>
    names.map((name) => `${name} ${read(env, name) ? 'set' : 'not set'}`).join(', ');
  return [
    'Model providers (choose one with --model or CADRE_MODEL):',
    `  gemini-<id>, gemini:<id>  Gemini API: ${state('GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL')}`,
    `  openai:<id>               OpenAI or a compatible server: ${state('OPENAI_API_KEY', 'OPENAI_BASE_URL')}`,
    `  ollama:<id>               Ollama: ${state('OLLAMA_BASE_URL')} (default ${DEFAULT_OLLAMA_BASE_URL})`,
    `  anthropic:<id>            Anthropic (Claude): ${state('ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL')}`,
    '  claude-<id>, sonnet, opus, haiku  Claude too, when ANTHROPIC_API_KEY is set',
    `  local:<file.gguf>, local:hf:<user>/<repo>:<quant>  In-process via node-llama-cpp: models in ${modelsDir(env)}`,
    '  scripted:<turns.json>     Canned answers from a file (demos and tests; tools still run)',
  ].join('\n');
}

function unreachable(modelString: string, need: string): ConfigError {
  return new ConfigError(
    `Cannot reach a model for "${modelString.trim()}": ${need}. ${setupHint()}`,
  );
}

/** Advice that fits every caller: it names models and variables, never a command-line flag. */
function setupHint(): string {
  return (
    'Set GEMINI_API_KEY for gemini-<id> models, OPENAI_API_KEY (or OPENAI_BASE_URL) for openai:<id>, ' +
    'ANTHROPIC_API_KEY for anthropic:<id> (or sonnet, opus, haiku), or run Ollama for ollama:<id>.'
  );
}

function read(env: ModelEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}
