import type { Usage } from '../../../model/types.js';
import type { CadreOutcome } from './completion-shapes.js';
import { RESPONSE_ID_PREFIX } from './responses-request.js';

/** OpenAI's Responses usage; reasoning tokens count as output tokens, as OpenAI counts them. */
export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export interface OutputText {
  type: 'output_text';
  text: string;
  annotations: [];
}

export interface OutputMessage {
  id: string;
  type: 'message';
  status: 'in_progress' | 'completed' | 'incomplete';
  role: 'assistant';
  content: OutputText[];
}

/**
 * `completed`: the run answered. `incomplete` with `incomplete_details.reason`
 * `awaiting_approval`: the run waits for a person to decide its calls
 * (`cadre.approvals`); the text says where. A failed run is an error
 * instead, as on the chat route.
 */
export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete';

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  error: null;
  incomplete_details: { reason: 'awaiting_approval' } | null;
  instructions: null;
  model: string;
  output: OutputMessage[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  tool_choice: 'auto';
  tools: [];
  temperature: null;
  top_p: null;
  metadata: Record<string, never>;
  usage: ResponseUsage | null;
  cadre?: CadreOutcome;
}

/** What every event and the response of one request share. */
export interface ResponseHead {
  id: string;
  createdAt: number;
  model: string;
  previousResponseId: string | null;
}

/** The run id is the response's id: one request, one run; `previous_response_id` finds it again. */
export function responseHead(
  runId: string,
  model: string,
  createdMs: number,
  previousRunId: string | undefined,
): ResponseHead {
  return {
    id: `${RESPONSE_ID_PREFIX}${runId}`,
    createdAt: Math.floor(createdMs / 1000),
    model,
    previousResponseId: previousRunId ? `${RESPONSE_ID_PREFIX}${previousRunId}` : null,
  };
}

/** The one output message's id, stable across the events of a response. */
export const messageId = (head: ResponseHead): string =>
  `msg_${head.id.slice(RESPONSE_ID_PREFIX.length)}`;

export function outputMessage(
  head: ResponseHead,
  text: string | undefined,
  status: OutputMessage['status'],
): OutputMessage {
  return {
    id: messageId(head),
    type: 'message',
    status,
    role: 'assistant',
    content: text === undefined ? [] : [outputText(text)],
  };
}

export const outputText = (text: string): OutputText => ({
  type: 'output_text',
  text,
  annotations: [],
});

export function responseUsage(usage: Usage, cachedInputTokens?: number): ResponseUsage {
  const output = usage.outputTokens + usage.thoughtTokens;
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: cachedInputTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.thoughtTokens },
    total_tokens: usage.inputTokens + output,
  };
}

/** A settled run waiting for a person is `incomplete`; an answered one `completed`. */
export const settledStatus = (cadre: Pick<CadreOutcome, 'status'>): ResponseStatus =>
  cadre.status === 'awaiting_confirmation' ? 'incomplete' : 'completed';

export function responseObject(
  head: ResponseHead,
  status: ResponseStatus,
  output: OutputMessage[],
  usage: ResponseUsage | null,
  cadre?: CadreOutcome,
): ResponseObject {
  return {
    id: head.id,
    object: 'response',
    created_at: head.createdAt,
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'awaiting_approval' } : null,
    instructions: null,
    model: head.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: head.previousResponseId,
    tool_choice: 'auto',
    tools: [],
    temperature: null,
    top_p: null,
    metadata: {},
    usage,
    ...(cadre ? { cadre } : {}),
  };
}
