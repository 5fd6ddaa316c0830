import { isRecord } from './describe-value.js';
import { didYouMean } from './did-you-mean.js';
import { warningAt, type IssuePath, type PendingIssue } from './issues.js';
import { findPlaceholders, type Placeholder } from './placeholder-syntax.js';
import { placeholderInputNames, placeholderStyleOf } from './placeholder-style.js';
import type { AgentDefinition, PlaceholderStyle } from './types.js';

/** A warning about one placeholder; `token` is its text, for finding its exact line. */
export interface PlaceholderIssue {
  issue: PendingIssue;
  token: string;
}

interface PromptText {
  /** The path as the raw definition spells it (`prompt_config.system_prompt` too). */
  path: IssuePath;
  text: string;
}

const spelled = (raw: unknown, keys: readonly string[]): string =>
  (isRecord(raw) ? keys.find((key) => raw[key] !== undefined) : undefined) ?? keys[0] ?? '';

/** Every prompt text of the definition, with where the raw definition wrote it. */
function promptTexts(definition: AgentDefinition, raw: unknown): PromptText[] {
  const prompt = definition.promptConfig;
  const configKey = spelled(raw, ['promptConfig', 'prompt_config']);
  const rawPrompt = isRecord(raw) ? raw[configKey] : undefined;
  const texts: PromptText[] = [];
  if (prompt.systemPrompt !== undefined)
    texts.push({
      path: [configKey, spelled(rawPrompt, ['systemPrompt', 'system_prompt'])],
      text: prompt.systemPrompt,
    });
  if (prompt.query !== undefined) texts.push({ path: [configKey, 'query'], text: prompt.query });
  const seedKey = spelled(rawPrompt, ['initialMessages', 'initial_messages']);
  const rawSeed = isRecord(rawPrompt) ? rawPrompt[seedKey] : undefined;
  (prompt.initialMessages ?? []).forEach((message, i) => {
    const rawMessage: unknown = Array.isArray(rawSeed) ? rawSeed[i] : undefined;
    const asContent = isRecord(rawMessage) && rawMessage.content !== undefined;
    message.parts.forEach((part, j) => {
      if (part.kind !== 'text') return;
      const where = asContent ? ['content'] : ['parts', j, 'text'];
      texts.push({ path: [configKey, seedKey, i, ...where], text: part.text });
    });
  });
  return texts;
}

function message(
  placeholder: Placeholder,
  style: PlaceholderStyle,
  inputs: readonly string[],
): string | undefined {
  if (placeholder.kind === 'artifact')
    return placeholder.optional
      ? `${placeholder.token} is always empty: Cadre has no ADK artifacts`
      : `${placeholder.token} fails the run: Cadre has no ADK artifacts (write {artifact.${placeholder.name}?} for an empty value)`;
  if (placeholder.optional || inputs.includes(placeholder.name)) return undefined;
  const near = didYouMean(placeholder.name, inputs);
  const known = inputs.length > 0 ? `; inputs: ${inputs.join(', ')}` : '';
  if (style === 'braces')
    return `placeholder ${placeholder.token} names no input${near}; unless an earlier agent stores it with output_key, the run fails, as in ADK (or write {${placeholder.name}?})${known}`;
  return `placeholder ${placeholder.token} names no input${near}${known}`;
}

/**
 * Placeholders no input can fill, in the definition's own style: almost
 * always typos in Cadre and Gemini CLI files; in ADK files a value an
 * earlier agent may store in the state. Claude Code files have none.
 * One warning per placeholder and text.
 */
export function placeholderIssues(definition: AgentDefinition, raw?: unknown): PlaceholderIssue[] {
  const style = placeholderStyleOf(definition);
  const inputs = placeholderInputNames(definition);
  return promptTexts(definition, raw).flatMap(({ path, text }) => {
    const seen = new Set<string>();
    return findPlaceholders(text, style).flatMap((placeholder) => {
      const said = message(placeholder, style, inputs);
      if (said === undefined || seen.has(placeholder.token)) return [];
      seen.add(placeholder.token);
      return [{ issue: warningAt(path, said), token: placeholder.token }];
    });
  });
}
