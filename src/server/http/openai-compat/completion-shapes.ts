import type { Usage } from '../../../model/types.js';
import type { RunResponse } from '../../run-service-types.js';

/** OpenAI's usage; reasoning (thought) tokens count as completion tokens, as OpenAI counts them. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  completion_tokens_details: { reasoning_tokens: number };
  /** Only when the provider reported prompt-cache reads. */
  prompt_tokens_details?: { cached_tokens: number };
}

/** Cadre's non-standard field: the run behind the answer, and what waits for a person. */
export interface CadreIds {
  runId: string;
  threadId: string;
}

export interface CadreOutcome extends CadreIds {
  status: RunResponse['status'];
  /** The run's web page, where its approvals can be decided. */
  runUrl: string;
  approvals: Array<{
    approvalId: string;
    tool: string;
    preview: string;
    reason: string;
    /** A subagent's call: who asks, from the run's agent to the tool (`['office', 'team', 'mailer', 'gmail_send']`). */
    path?: string[];
  }>;
  /** Request settings the agent's definition decides instead (temperature, tools…): not applied. */
  ignored?: string[];
}

/**
 * `stop`: the run answered. `awaiting_approval`: it waits for a person to
 * decide its calls (`cadre.approvals`); the answer says where.
 */
export type FinishReason = 'stop' | 'awaiting_approval';

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: { role: 'assistant'; content: string; refusal: null };
    finish_reason: FinishReason;
    logprobs: null;
  }>;
  usage: ChatUsage;
  cadre: CadreOutcome;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    delta: { role?: 'assistant'; content?: string };
    finish_reason: FinishReason | null;
    logprobs: null;
  }>;
  /** Present (null until the last chunk) when the client asked for usage. */
  usage?: ChatUsage | null;
  cadre?: CadreIds | CadreOutcome;
}

/** What every chunk and the completion of one request share. */
export interface CompletionHead {
  id: string;
  created: number;
  model: string;
}

/** The run id is the completion's id: one request, one run. */
export function completionHead(runId: string, model: string, createdMs: number): CompletionHead {
  return { id: `chatcmpl-${runId}`, created: Math.floor(createdMs / 1000), model };
}

export function chatUsage(usage: Usage, cachedInputTokens?: number): ChatUsage {
  const completion = usage.outputTokens + usage.thoughtTokens;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: completion,
    total_tokens: usage.inputTokens + completion,
    completion_tokens_details: { reasoning_tokens: usage.thoughtTokens },
    ...(cachedInputTokens === undefined
      ? {}
      : { prompt_tokens_details: { cached_tokens: cachedInputTokens } }),
  };
}

export function chatCompletion(
  head: CompletionHead,
  content: string,
  usage: ChatUsage,
  cadre: CadreOutcome,
): ChatCompletion {
  return {
    ...head,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        finish_reason: finishReason(cadre),
        logprobs: null,
      },
    ],
    usage,
    cadre,
  };
}

/** How a settled run's choice ends: a run waiting for a person says so. */
export const finishReason = (cadre: Pick<CadreOutcome, 'status'>): FinishReason =>
  cadre.status === 'awaiting_confirmation' ? 'awaiting_approval' : 'stop';

/** One streamed chunk; `extra` carries usage and the `cadre` field where they belong. */
export function chatChunk(
  head: CompletionHead,
  delta: ChatCompletionChunk['choices'][number]['delta'] | undefined,
  finish: FinishReason | null,
  extra: Pick<ChatCompletionChunk, 'usage' | 'cadre'> = {},
): ChatCompletionChunk {
  return {
    ...head,
    object: 'chat.completion.chunk',
    // The usage chunk has no choices, as OpenAI sends it.
    choices: delta ? [{ index: 0, delta, finish_reason: finish, logprobs: null }] : [],
    ...extra,
  };
}
