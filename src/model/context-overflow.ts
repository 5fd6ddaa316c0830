/**
 * Recognises a provider's "the request is longer than the context window"
 * answer, from the words each provider really sends (a 400, so it is never
 * retried as is): the run then compacts and sends once more instead of failing.
 *
 * - Gemini: `The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).`
 * - OpenAI: code `context_length_exceeded`; `This model's maximum context length is 128000
 *   tokens. However, your messages resulted in 130512 tokens…`, or (Responses API) `Your input
 *   exceeds the context window of this model.`
 * - Anthropic: `prompt is too long: 208310 tokens > 200000 maximum`, or a 413 `request_too_large`.
 */
export interface ContextOverflow {
  /** The request's size as the provider counted it, when it said. */
  inputTokens?: number;
  /** The provider's limit, when it said. */
  maxTokens?: number;
}

const PATTERNS: readonly { test: RegExp; input?: RegExp; max?: RegExp }[] = [
  {
    test: /input token count.*exceeds the maximum/i,
    input: /input token count \((\d+)\)/i,
    max: /tokens allowed \((\d+)\)/i,
  },
  {
    test: /maximum context length is/i,
    input: /resulted in (\d+) tokens|requested (\d+) tokens/i,
    max: /maximum context length is (\d+)/i,
  },
  { test: /exceeds the context window/i },
  {
    test: /prompt is too long/i,
    input: /prompt is too long: (\d+) tokens/i,
    max: /tokens > (\d+) maximum/i,
  },
];

/** The overflow a failed call reports, or undefined when it failed for another reason. */
export function contextOverflow(failure: {
  status?: number | undefined;
  detail: string;
  code?: string | undefined;
}): ContextOverflow | undefined {
  const { status, detail, code } = failure;
  if (status === 413) return {};
  if (status !== undefined && status !== 400) return undefined;
  const pattern = PATTERNS.find((p) => p.test.test(detail));
  if (!pattern && code !== 'context_length_exceeded') return undefined;
  const inputTokens = pattern?.input ? numberIn(pattern.input, detail) : undefined;
  const maxTokens = pattern?.max ? numberIn(pattern.max, detail) : undefined;
  return {
    ...(inputTokens !== undefined ? { inputTokens } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}

function numberIn(pattern: RegExp, text: string): number | undefined {
  const match = pattern.exec(text);
  const digits = match?.slice(1).find((group) => group !== undefined);
  return digits === undefined ? undefined : Number(digits);
}
