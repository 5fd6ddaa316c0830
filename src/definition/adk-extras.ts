import { describeValue, isRecord } from './describe-value.js';
import { warningAt, type PendingIssue } from './issues.js';
import { isOpenAIModel } from '../model/resolve-model.js';
import type { AgentDefinition, ModelConfig } from './types.js';

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
 * conversation), `max_output_tokens`, `top_k`, `stop_sequences` and
 * `thinking_config.thinking_budget`.
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
  const sampling = samplingOf(generation, definition.modelConfig?.model);
  pending.push(...sampling.pending);
  if (sampling.config)
    definition = { ...definition, modelConfig: { ...definition.modelConfig, ...sampling.config } };
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

/** The spelling a config uses (snake_case, or the proto's camelCase). */
const keyOf = (generation: Record<string, unknown>, snake: string, camel: string): string =>
  snake in generation ? snake : camel;

/**
 * `top_k` and `stop_sequences`, checked. OpenAI's API has no top_k: an agent
 * whose model is an OpenAI one is told once, here, rather than on every call.
 */
function samplingOf(
  generation: Record<string, unknown>,
  model: string | undefined,
): { config?: Pick<ModelConfig, 'topK' | 'stopSequences'>; pending: PendingIssue[] } {
  const pending: PendingIssue[] = [];
  const config: Pick<ModelConfig, 'topK' | 'stopSequences'> = {};
  const kKey = keyOf(generation, 'top_k', 'topK');
  const topK = generation[kKey];
  if (positiveInteger(topK)) {
    config.topK = topK;
    if (model !== undefined && isOpenAIModel(model))
      pending.push(
        warningAt(
          ['generate_content_config', kKey],
          `${kKey} is not sent to ${model}: OpenAI's API has no top_k`,
        ),
      );
  } else if (topK !== undefined && topK !== null)
    pending.push(
      warningAt(
        ['generate_content_config', kKey],
        `${kKey} must be a positive integer, got ${describeValue(topK)}; ignored`,
      ),
    );
  const stopKey = keyOf(generation, 'stop_sequences', 'stopSequences');
  const stops = generation[stopKey];
  if (Array.isArray(stops) && stops.every((s) => typeof s === 'string' && s !== '')) {
    if (stops.length > 0) config.stopSequences = stops as string[];
  } else if (stops !== undefined && stops !== null)
    pending.push(
      warningAt(
        ['generate_content_config', stopKey],
        `${stopKey} must be a list of non-empty strings, got ${describeValue(stops)}; ignored`,
      ),
    );
  return { ...(Object.keys(config).length > 0 ? { config } : {}), pending };
}
