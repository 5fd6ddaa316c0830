/** Model values that mean "whatever the run uses" in Claude Code, Gemini CLI and ADK files. */
const RUN_DEFAULT = new Set(['inherit', 'auto', 'default']);

export const meansRunDefault = (model: string): boolean =>
  RUN_DEFAULT.has(model.trim().toLowerCase());

/**
 * Whether some provider Cadre ships can serve this model id: provider-prefixed
 * ids (`openai:gpt-4.1`, `ollama:qwen3`), Gemini / Gemma ids, OpenAI ids.
 * Claude aliases (`sonnet`, `opus`, `haiku`, `claude-*`) are not served.
 */
export function servedByDefault(model: string): boolean {
  const id = model.trim();
  if (/^[a-z][\w-]*:\S/i.test(id)) return true;
  return /^(gemini|gemma|learnlm)-/i.test(id) || /^(gpt-|chatgpt-|o\d)/i.test(id);
}
