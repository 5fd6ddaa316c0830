import { isClaudeModelName } from '../model/claude-models.js';

/** Model values that mean "whatever the run uses" in Claude Code, Gemini CLI and ADK files. */
const RUN_DEFAULT = new Set(['inherit', 'auto', 'default']);

export const meansRunDefault = (model: string): boolean =>
  RUN_DEFAULT.has(model.trim().toLowerCase());

/** The environment variables a provider check reads (process.env by default). */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/**
 * Whether some provider Cadre ships can serve this model id: provider-prefixed
 * ids (`openai:gpt-4.1`, `ollama:qwen3`, `anthropic:claude-opus-5-5`), Gemini /
 * Gemma ids, OpenAI ids, and Claude names (`sonnet`, `opus`, `haiku`,
 * `claude-*`) only when ANTHROPIC_API_KEY is set, as that is when the
 * resolver sends them to Anthropic.
 */
export function servedByDefault(model: string, env: ProviderEnv = process.env): boolean {
  const id = model.trim();
  if (/^[a-z][\w-]*:\S/i.test(id)) return true;
  if (isClaudeModelName(id)) return Boolean(env['ANTHROPIC_API_KEY']?.trim());
  return /^(gemini|gemma|learnlm)-/i.test(id) || /^(gpt-|chatgpt-|o\d)/i.test(id);
}

/** `LoadOptions.servesModel` for callers that carry their own environment (the CLI's io.env, the server's env). */
export const servesModelIn =
  (env: ProviderEnv) =>
  (model: string): boolean =>
    servedByDefault(model, env);
