/**
 * Finish reasons as the GenAI semantic conventions spell them (the
 * `FinishReason` of `gen_ai.output.messages`): `stop`, `length`,
 * `content_filter`, `tool_call`, `error`. Providers' own values map onto
 * them; one the conventions have no word for is kept, lower-cased.
 */
const SPELLING: Readonly<Record<string, string>> = {
  // OpenAI, Gemini, Anthropic, Bedrock, Ollama…
  stop: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  end: 'stop',
  complete: 'stop',
  length: 'length',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_calls: 'tool_call',
  tool_call: 'tool_call',
  tool_use: 'tool_call',
  function_call: 'tool_call',
  content_filter: 'content_filter',
  safety: 'content_filter',
  recitation: 'content_filter',
  blocklist: 'content_filter',
  prohibited_content: 'content_filter',
  spii: 'content_filter',
  image_safety: 'content_filter',
  refusal: 'content_filter',
  guardrail_intervened: 'content_filter',
  error: 'error',
  malformed_function_call: 'error',
  unexpected_tool_call: 'error',
};

export function finishReason(raw: string): string {
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/^finish_reason_/, '');
  return SPELLING[key] ?? key;
}
