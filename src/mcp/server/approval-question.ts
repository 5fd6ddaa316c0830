import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { escapeInvisible } from '../../util/visible-text.js';

/** A side-effecting call waiting for a person, as the MCP client is asked about it. */
export interface ApprovalQuestion {
  tool: string;
  /** The tool's one-line description of the call. */
  preview: string;
  /** Why the gate asks. */
  reason: string;
  /** The agent that wants it (its path in the agent tree, e.g. `planner › writer`). */
  agent?: string;
  /** Offer "approve every call of this tool in this run". */
  offerAlways?: boolean;
}

/** The person's answer; `undecided` when they dismissed the question or it could not be asked. */
export type ApprovalAnswer =
  | { kind: 'approve' }
  | { kind: 'approve_always' }
  | { kind: 'reject'; feedback?: string }
  | { kind: 'undecided'; why: string };

const DECISIONS = {
  approve: 'Approve',
  approve_always: 'Approve this and every later call of the tool in this run',
  reject: 'Reject',
} as const;

/** The elicitation form: a decision, and a reason told to the agent when it is a rejection. */
export function approvalElicitation(question: ApprovalQuestion): ElicitRequestFormParams {
  const choices = (Object.keys(DECISIONS) as Array<keyof typeof DECISIONS>).filter(
    (d) => d !== 'approve_always' || question.offerAlways,
  );
  // A client shows the message as it is: what acts instead of showing is escaped.
  const shown = (text: string): string => escapeInvisible(text);
  const who = question.agent ? `The agent ${shown(question.agent)}` : 'The agent';
  return {
    mode: 'form',
    message: `${who} wants to run ${shown(question.tool)}: ${shown(question.preview)}\n${shown(question.reason)}\nAllow it?`,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          enum: choices,
          enumNames: choices.map((d) => DECISIONS[d]),
        },
        reason: {
          type: 'string',
          title: 'Reason',
          description: 'Optional; told to the agent when you reject the call.',
          maxLength: 2000,
        },
      },
      required: ['decision'],
    },
  };
}

/** Reads the client's answer: accept with a decision, decline (= reject), or cancel (= undecided). */
export function readApprovalAnswer(result: ElicitResult): ApprovalAnswer {
  const reason =
    typeof result.content?.reason === 'string' && result.content.reason.trim()
      ? result.content.reason.trim()
      : undefined;
  if (result.action === 'decline')
    return { kind: 'reject', ...(reason ? { feedback: reason } : {}) };
  if (result.action !== 'accept')
    return { kind: 'undecided', why: 'the person dismissed the question' };
  switch (result.content?.decision) {
    case 'approve':
      return { kind: 'approve' };
    case 'approve_always':
      return { kind: 'approve_always' };
    case 'reject':
      return { kind: 'reject', ...(reason ? { feedback: reason } : {}) };
    default:
      return { kind: 'undecided', why: 'the answer named no decision' };
  }
}
