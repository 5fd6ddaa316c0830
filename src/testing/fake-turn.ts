/**
 * The script both fake model servers play back. Every response they send is
 * scripted by the test: nothing here imitates a model's judgement.
 */

import type { Clock } from '../util/clock.js';

export type FakePart =
  | { text: string; signature?: string }
  | { thought: string; signature?: string }
  | {
      functionCall: {
        name: string;
        args: Record<string, unknown>;
        /** Omitted by default, as the Gemini API does; the OpenAI and Anthropic fakes invent one. */
        id?: string;
        /** OpenAI and Anthropic fakes: stream this exact string instead of JSON.stringify(args). */
        rawArguments?: string;
      };
      signature?: string;
    };

export interface FakeTurn {
  parts: FakePart[];
  usage?: { input?: number; output?: number; thoughts?: number };
}

export interface CapturedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when the body was empty. */
  body: unknown;
}

/** A scripted failure answered instead of a turn. */
export interface FakeFailure {
  status: number;
  /** Sent as the `Retry-After` header when set. */
  retryAfter?: string;
  /** Replaces the provider-shaped default error body. */
  body?: unknown;
}

export interface FakeServerOptions {
  turns: FakeTurn[] | ((request: CapturedRequest, index: number) => FakeTurn);
  /** The first N requests get these failures, in order, before any turn is played. */
  failFirst?: FakeFailure[];
  /** Pause between streamed events, so tests can act mid-stream (e.g. abort). */
  chunkDelayMs?: number;
  /** What those pauses wait on; a manual clock lets a test release the stream event by event. */
  clock?: Clock;
  /**
   * The model's context window: a request counted larger (fakeInputTokens) is
   * refused with the provider's real "too long" error, as the provider would.
   * The count is also the usage reported, unless a turn scripts its own.
   */
  maxInputTokens?: number;
}

export interface FakeServer {
  baseUrl: string;
  /** Every request received, failed ones included, in arrival order. */
  requests: CapturedRequest[];
  close(): Promise<void>;
}

/** Splits text into 2+ pieces (when it has 2+ characters) so streaming is really exercised. */
export function splitInTwo(text: string): string[] {
  if (text.length < 2) return [text];
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

/** The turn for the index-th successful request, or undefined when the script ran out. */
export function pickTurn(
  options: FakeServerOptions,
  request: CapturedRequest,
  index: number,
): FakeTurn | undefined {
  return typeof options.turns === 'function' ? options.turns(request, index) : options.turns[index];
}

export interface FakeUsage {
  input: number;
  output: number;
  thoughts: number;
}

/**
 * A request's input tokens as the fakes count them: its whole JSON body at 3
 * characters a token. Stricter than Cadre's own estimate (which counts the
 * conversation without the wire format's wrapping), so a run that stays under
 * the window by its own measure is really tested against a provider.
 */
export function fakeInputTokens(requestBody: unknown): number {
  return Math.ceil(JSON.stringify(requestBody ?? '').length / 3);
}

/** Scripted usage, or a crude deterministic estimate (4 characters a token). */
export function usageOf(turn: FakeTurn, requestBody: unknown, counted?: number): FakeUsage {
  const estimate = (text: string): number => Math.max(1, Math.ceil(text.length / 4));
  let output = 0;
  let thoughts = 0;
  for (const part of turn.parts) {
    if ('text' in part) output += estimate(part.text);
    else if ('thought' in part) thoughts += estimate(part.thought);
    else output += estimate(JSON.stringify(part.functionCall.args));
  }
  return {
    input: turn.usage?.input ?? counted ?? estimate(JSON.stringify(requestBody ?? '')),
    output: turn.usage?.output ?? output,
    thoughts: turn.usage?.thoughts ?? thoughts,
  };
}

export function exhaustedMessage(
  server: string,
  index: number,
  options: FakeServerOptions,
): string {
  const scripted = Array.isArray(options.turns)
    ? `${options.turns.length} turns were scripted`
    : 'the turn function returned nothing';
  return `${server}: the script ran out: no turn for successful request #${index + 1} (${scripted}). These responses are scripted; add a turn.`;
}
