/**
 * Neutral request → Anthropic Messages request. Type-only SDK imports: the
 * SDK itself is loaded lazily by the client.
 *
 * Prompt caching: the system prompt, the tool list and the newest user turn
 * each end with an ephemeral cache breakpoint, so every turn of an agent
 * loop reads the unchanged prefix (system, tools, earlier turns) from cache.
 */
import type {
  CacheControlEphemeral,
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  ThinkingConfigParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type {
  FunctionResponsePart,
  GenerationConfig,
  Message,
  ModelRequest,
  Part,
  ToolDeclaration,
} from './types.js';

/** Anthropic requires max_tokens; used when neither the request nor the client sets one. */
export const DEFAULT_MAX_TOKENS = 8192;
/** The API's smallest thinking budget. */
export const MIN_THINKING_BUDGET = 1024;
/** Room left for the answer when a thinking budget would not fit under max_tokens. */
const ANSWER_ROOM = 4096;
/**
 * Redacted thinking has no text, only opaque data that must go back as-is.
 * It travels as a thought whose signature carries this prefix (real
 * signatures are base64, so they never contain `:`).
 */
export const REDACTED_THINKING_PREFIX = 'redacted_thinking:';

const EPHEMERAL: CacheControlEphemeral = { type: 'ephemeral' };

/** The API rejects text blocks with nothing but whitespace (models sometimes emit "\n\n" before a call). */
const isBlank = (text: string): boolean => text.trim() === '';

export function toAnthropicParams(
  request: ModelRequest,
  defaultMaxTokens = DEFAULT_MAX_TOKENS,
): MessageCreateParamsStreaming {
  const { thinking, maxTokens } = thinkingOf(
    request.config,
    request.config.maxOutputTokens ?? defaultMaxTokens,
  );
  const params: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: maxTokens,
    messages: toAnthropicMessages(request.messages),
    stream: true,
    ...sampling(request.config, thinking),
  };
  if (request.systemInstruction) {
    params.system = [{ type: 'text', text: request.systemInstruction, cache_control: EPHEMERAL }];
  }
  if (request.tools.length > 0) params.tools = toAnthropicTools(request.tools);
  else Object.assign(params, toolsOfHistory(params.messages));
  if (thinking) params.thinking = thinking;
  return params;
}

/** Tools in order, the last one marked as a cache breakpoint (it caches the whole list). */
function toAnthropicTools(tools: readonly ToolDeclaration[]): Tool[] {
  return tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    // Anthropic insists on an object schema; ours always describe an arguments object.
    input_schema: { ...tool.parameters, type: 'object' },
    ...(index === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
}

/**
 * The API rejects tool_use / tool_result blocks in a request that defines
 * no tools (a grace turn offers none): the tools the history used are
 * declared again, and tool_choice none keeps the model from calling them.
 */
function toolsOfHistory(
  messages: readonly MessageParam[],
): Pick<MessageCreateParamsStreaming, 'tools' | 'tool_choice'> {
  const names = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_use') names.add(block.name);
  }
  if (names.size === 0) return {};
  return {
    tools: [...names].map((name) => ({
      name,
      description: 'Not available in this turn.',
      input_schema: { type: 'object' },
    })),
    tool_choice: { type: 'none' },
  };
}

/**
 * `thinkingBudget`: -1 lets the model decide (adaptive), 0 turns thinking
 * off, N enables it with N tokens (at least the API's 1024). Thinking counts
 * toward max_tokens, so a budget that leaves no room for the answer raises it.
 */
function thinkingOf(
  config: GenerationConfig,
  maxTokens: number,
): { thinking?: ThinkingConfigParam; maxTokens: number } {
  const budget = config.thinkingBudget;
  if (budget === undefined) return { maxTokens };
  if (budget === 0) return { thinking: { type: 'disabled' }, maxTokens };
  if (budget < 0) return { thinking: { type: 'adaptive' }, maxTokens };
  const budgetTokens = Math.max(MIN_THINKING_BUDGET, Math.floor(budget));
  return {
    thinking: { type: 'enabled', budget_tokens: budgetTokens },
    maxTokens: budgetTokens < maxTokens ? maxTokens : budgetTokens + ANSWER_ROOM,
  };
}

interface Sampling {
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
}

/**
 * With thinking on, the API rejects a temperature other than 1, a top_p
 * below 0.95 and any top_k, so those are left out. Current models also
 * reject temperature and top_p together: temperature wins.
 */
function sampling(config: GenerationConfig, thinking: ThinkingConfigParam | undefined): Sampling {
  const thinkingOn = thinking !== undefined && thinking.type !== 'disabled';
  const { temperature, topP, topK, stopSequences } = config;
  const out: Sampling = {};
  if (temperature !== undefined && (!thinkingOn || temperature === 1))
    out.temperature = temperature;
  if (topP !== undefined && out.temperature === undefined && (!thinkingOn || topP >= 0.95))
    out.top_p = topP;
  if (topK !== undefined && !thinkingOn) out.top_k = topK;
  if (stopSequences?.length) out.stop_sequences = stopSequences;
  return out;
}

export function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of messages) {
    const content =
      message.role === 'model' ? message.parts.flatMap(assistantBlock) : userBlocks(message.parts);
    // The API rejects a message without content (e.g. a turn of unsigned thoughts only).
    if (content.length > 0)
      out.push({ role: message.role === 'model' ? 'assistant' : 'user', content });
  }
  markNewestUserTurn(out);
  return out;
}

function assistantBlock(part: Part): ContentBlockParam[] {
  switch (part.kind) {
    case 'text':
      return isBlank(part.text) ? [] : [{ type: 'text', text: part.text }];
    case 'thought':
      return thinkingBlock(part.text, part.signature);
    case 'function_call':
      return [{ type: 'tool_use', id: part.id, name: part.name, input: part.args }];
    case 'function_response':
      return []; // never in a model turn
    default:
      part satisfies never;
      return [];
  }
}

/**
 * Thinking goes back only with its signature (the API verifies it and
 * needs it on the turn that called tools); unsigned thoughts (another
 * provider's, or a scripted one) are dropped.
 */
function thinkingBlock(text: string, signature: string | undefined): ContentBlockParam[] {
  if (!signature) return [];
  if (signature.startsWith(REDACTED_THINKING_PREFIX))
    return [{ type: 'redacted_thinking', data: signature.slice(REDACTED_THINKING_PREFIX.length) }];
  return [{ type: 'thinking', thinking: text, signature }];
}

/** Tool results first: the API wants them right at the start of the turn after the calls. */
function userBlocks(parts: readonly Part[]): ContentBlockParam[] {
  const results: ContentBlockParam[] = [];
  const texts: ContentBlockParam[] = [];
  for (const part of parts) {
    if (part.kind === 'function_response') results.push(toolResult(part));
    else if (part.kind === 'text' && !isBlank(part.text))
      texts.push({ type: 'text', text: part.text });
  }
  return [...results, ...texts];
}

function toolResult(part: FunctionResponsePart): ContentBlockParam {
  const { response } = part;
  if ('error' in response)
    return { type: 'tool_result', tool_use_id: part.id, content: response.error, is_error: true };
  const content =
    typeof response.output === 'string' ? response.output : JSON.stringify(response.output ?? null);
  const images = (part.images ?? []).flatMap(({ mimeType, data }) =>
    isClaudeImageType(mimeType)
      ? [
          {
            type: 'image' as const,
            source: { type: 'base64' as const, media_type: mimeType, data },
          },
        ]
      : [],
  );
  if (images.length > 0)
    return {
      type: 'tool_result',
      tool_use_id: part.id,
      content: [...(isBlank(content) ? [] : [{ type: 'text' as const, text: content }]), ...images],
    };
  // A blank text result is rejected; no content at all is fine.
  return isBlank(content)
    ? { type: 'tool_result', tool_use_id: part.id }
    : { type: 'tool_result', tool_use_id: part.id, content };
}

/** The image types a tool result may carry. */
const CLAUDE_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
const isClaudeImageType = (type: string): type is (typeof CLAUDE_IMAGE_TYPES)[number] =>
  (CLAUDE_IMAGE_TYPES as readonly string[]).includes(type);

/** The conversation breakpoint: the last block of the newest user turn. */
function markNewestUserTurn(messages: MessageParam[]): void {
  const last = messages.at(-1);
  if (last?.role !== 'user' || typeof last.content === 'string') return;
  const block = last.content.at(-1);
  if (block?.type === 'text' || block?.type === 'tool_result') {
    last.content[last.content.length - 1] = { ...block, cache_control: EPHEMERAL };
  }
}
