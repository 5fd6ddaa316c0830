import { describeValue, isRecord } from './describe-value.js';
import { warningAt, type PendingIssue } from './issues.js';
import type { AgentDefinition } from './types.js';

/** A string, or a genai Content (`parts: [{text}]`) as ADK also takes for `static_instruction`. */
function contentText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!isRecord(value) || !Array.isArray(value.parts)) return undefined;
  const texts = value.parts.map((part) =>
    isRecord(part) && typeof part.text === 'string' ? part.text : undefined,
  );
  return texts.every((text) => text !== undefined) ? texts.join('') : undefined;
}

const positiveInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0;

/**
 * The ADK fields the Cadre raw definition has no place for, honoured on the
 * loaded definition: `static_instruction` (before the instruction, never
 * templated, as ADK sends it), `include_contents: none` (no earlier
 * conversation), `max_output_tokens` and `thinking_config.thinking_budget`.
 */
export function withAdkExtras(
  data: Record<string, unknown>,
  loaded: AgentDefinition,
): { definition: AgentDefinition; pending: PendingIssue[] } {
  const pending: PendingIssue[] = [];
  let definition = loaded;
  if (data.static_instruction !== undefined && data.static_instruction !== null) {
    const text = contentText(data.static_instruction);
    if (text === undefined)
      pending.push(
        warningAt(
          ['static_instruction'],
          `static_instruction must be text or a Content of text parts, got ${describeValue(data.static_instruction)}; ignored`,
        ),
      );
    else if (text.trim())
      definition = {
        ...definition,
        promptConfig: { ...definition.promptConfig, staticSystemPrompt: text },
      };
  }
  if (data.include_contents === 'none')
    definition = { ...definition, promptConfig: { ...definition.promptConfig, history: 'none' } };
  else if (data.include_contents !== undefined && data.include_contents !== 'default')
    pending.push(
      warningAt(
        ['include_contents'],
        `include_contents must be default or none, got ${describeValue(data.include_contents)}; default is used`,
      ),
    );
  const generation = isRecord(data.generate_content_config) ? data.generate_content_config : {};
  const maxKey = 'max_output_tokens' in generation ? 'max_output_tokens' : 'maxOutputTokens';
  const max = generation[maxKey];
  if (positiveInteger(max))
    definition = {
      ...definition,
      modelConfig: { ...definition.modelConfig, maxOutputTokens: max },
    };
  else if (max !== undefined)
    pending.push(
      warningAt(
        ['generate_content_config', maxKey],
        `${maxKey} must be a positive integer, got ${describeValue(max)}; ignored`,
      ),
    );
  const thinking = generation.thinking_config ?? generation.thinkingConfig;
  const budget = isRecord(thinking)
    ? (thinking.thinking_budget ?? thinking.thinkingBudget)
    : undefined;
  if (typeof budget === 'number' && Number.isInteger(budget) && budget >= -1)
    definition = {
      ...definition,
      modelConfig: { ...definition.modelConfig, thinkingBudget: budget },
    };
  return { definition, pending };
}
