/**
 * Claude model names Cadre understands without a provider prefix. The one
 * place to update when Anthropic ships new models.
 *
 *   sonnet → claude-sonnet-5-5
 *   opus   → claude-opus-5-5
 *   haiku  → claude-haiku-5-5
 *   claude-<anything> → itself
 *
 * The aliases are the names Claude Code agent files use; each points at the
 * newest model of its family that the installed `@anthropic-ai/sdk` lists
 * (it warns on every call to a deprecated id such as `claude-sonnet-4-5`).
 * Bare names reach Anthropic only when ANTHROPIC_API_KEY is set (see
 * resolve-model.ts and spec/model-names.ts); `anthropic:<id>` always does.
 */
export const CLAUDE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
  haiku: 'claude-haiku-5-5',
});

/** The Claude model id a bare name means, or undefined when it is not a Claude name. */
export function claudeModelId(name: string): string | undefined {
  const id = name.trim();
  const alias = id.toLowerCase();
  if (Object.hasOwn(CLAUDE_ALIASES, alias)) return CLAUDE_ALIASES[alias];
  return /^claude-\S+$/i.test(id) ? id : undefined;
}

/** `sonnet`, `opus`, `haiku` or `claude-*`. */
export const isClaudeModelName = (name: string): boolean => claudeModelId(name) !== undefined;
