import { contextWindowFor } from './context-windows.js';

/**
 * The most output tokens (thinking included) each model may write in one
 * call, from the providers' model pages. A model matches its own id or the
 * longest id it starts with, as prices and context windows do.
 */
const DEFAULT_MAX_OUTPUT_TOKENS: Readonly<Record<string, number>> = Object.freeze({
  'gemini-2.5-pro': 65_536,
  'gemini-2.5-flash': 65_536,
  'gemini-2.5-flash-lite': 65_536,
  'gemini-2.0-flash': 8_192,
  'gemini-2.0-flash-lite': 8_192,
  'gpt-4.1': 32_768,
  'gpt-4.1-mini': 32_768,
  'gpt-4.1-nano': 32_768,
  'gpt-4o': 16_384,
  'gpt-4o-mini': 16_384,
  o3: 100_000,
  'o3-pro': 100_000,
  'o4-mini': 100_000,
  'claude-opus-4': 32_000,
  'claude-sonnet-4': 64_000,
  'claude-haiku-4': 64_000,
  'claude-3-5-haiku': 8_192,
});

/** The model's own output limit, when known (same matching rules as context windows). */
export function maxOutputTokensFor(model: string): number | undefined {
  return contextWindowFor(model, DEFAULT_MAX_OUTPUT_TOKENS);
}
