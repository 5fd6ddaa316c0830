import type { RunResponse } from '../../run-service-types.js';
import type { CadreOutcome } from './completion-shapes.js';
import { THREAD_HEADER } from './thread-header.js';
import { escapeInvisible } from '../../../util/visible-text.js';

export interface SettledReply {
  /** The assistant message: the answer, or what the run waits for, or why it stopped. */
  content: string;
  cadre: CadreOutcome;
}

/**
 * A settled run as one assistant message. Every status ends the choice with
 * `stop`: the request succeeded even when the run did not (a failed run is
 * stored, with its reason, like any other), and the `cadre` field tells a
 * client which it was.
 */
export function settledReply(
  response: RunResponse,
  baseUrl: string,
  /** Request settings the agent's definition decides instead, named in `cadre.ignored`. */
  ignored: readonly string[] = [],
): SettledReply {
  const runUrl = `${baseUrl}/runs/${response.runId}`;
  const cadre: CadreOutcome = {
    runId: response.runId,
    threadId: response.threadId,
    status: response.status,
    runUrl,
    approvals: response.approvals.map((a) => ({
      approvalId: a.approvalId,
      tool: a.tool,
      preview: a.preview,
      reason: a.reason,
      ...(a.path ? { path: [...a.path] } : {}),
    })),
    ...(ignored.length > 0 ? { ignored: [...ignored] } : {}),
  };
  return { content: contentOf(response, baseUrl, runUrl), cadre };
}

function contentOf(response: RunResponse, baseUrl: string, runUrl: string): string {
  const { runId } = response;
  switch (response.status) {
    case 'completed':
      return response.summary;
    case 'failed':
      return `Run ${runId} failed: ${response.summary}`;
    case 'cancelled':
      return `Run ${runId} was cancelled.`;
    case 'running':
      return `Run ${runId} is still running; follow it at ${runUrl} or GET ${baseUrl}/api/runs/${runId}/stream.`;
    case 'awaiting_confirmation':
      return waitingText(response, baseUrl, runUrl);
    default:
      return response.status satisfies never;
  }
}

/** A paused run: what waits, where a person decides, and how to read the answer afterwards. */
function waitingText(response: RunResponse, baseUrl: string, runUrl: string): string {
  // Previews are visible already; guarded again, as a chat client shows this text as it is.
  // A subagent's call says who asks: `- office › team › mailer › gmail_send: Send "Note" to bob@…`.
  const asks = response.approvals.map(
    (a) => `- ${escapeInvisible(`${askedBy(a.path)}${a.preview}`)} (approval ${a.approvalId})`,
  );
  const example = response.approvals[0]?.approvalId ?? '…';
  return [
    `Run ${response.runId} is waiting for approval before it goes on:`,
    ...asks,
    `Decide in the web page at ${runUrl}, or with POST ${baseUrl}/api/agent/approvals/resolve ` +
      `{"approvalId": "${example}", "decision": "approve_once"} (or "reject"). ` +
      'The run goes on once every call is decided; its answer lands in thread ' +
      `${response.threadId}, which a next request continues with the header ` +
      `${THREAD_HEADER}: ${response.threadId}.`,
  ].join('\n');
}

/** `office › team › mailer › gmail_send: ` for a subagent's call; nothing for the run's own. */
const askedBy = (path: readonly string[] | undefined): string =>
  path && path.length > 0 ? `${path.join(' › ')}: ` : '';

/**
 * What a stream still owes after the text it already sent: the answer when
 * it was not streamed as text (a structured result, a subagent's answer),
 * or the outcome's message for a run that did not complete.
 */
export function streamTail(response: RunResponse, outcome: SettledReply, streamed: string): string {
  const sent = streamed.trim();
  const owed = outcome.content.trim();
  if (!owed) return '';
  if (response.status === 'completed' && sent.endsWith(owed)) return '';
  return sent ? `\n\n${outcome.content}` : outcome.content;
}

/**
 * A non-streamed answer: the same text a stream of the run sends (every turn's
 * text of the top-level agent, then what it still owed), so a client gets the
 * same content whether it streams or not.
 */
export const answerText = (
  response: RunResponse,
  outcome: SettledReply,
  streamed: string,
): string => streamed + streamTail(response, outcome, streamed);
