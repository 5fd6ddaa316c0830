import type { Message } from '@a2a-js/sdk';
import type { ApprovalDecision } from '../../store/types.js';

/**
 * A person's answer to an `input-required` task: decide every approval the
 * run waits for, or only the one named (by approval id or the model's call id).
 */
export interface TaskDecision {
  decision: Extract<ApprovalDecision, 'approve_once' | 'reject'>;
  approvalId?: string;
  callId?: string;
  feedback?: string;
}

const WORDS: Record<string, TaskDecision['decision']> = {
  approve: 'approve_once',
  reject: 'reject',
};

const decisionWord = (value: unknown): TaskDecision['decision'] | undefined =>
  typeof value === 'string'
    ? WORDS[
        value
          .trim()
          .toLowerCase()
          .replace(/[.!]+$/, '')
      ]
    : undefined;

const optionalText = (
  data: Record<string, unknown>,
  key: 'approvalId' | 'callId' | 'feedback',
): Partial<TaskDecision> => {
  const value = data[key];
  return typeof value === 'string' && value.trim() ? { [key]: value.trim() } : {};
};

/**
 * The decision a follow-up message carries, if any: a data part
 * `{ "decision": "approve" | "reject", "approvalId"?, "callId"?, "feedback"? }`,
 * or a text part that is just `approve` or `reject` (any case, a trailing
 * period allowed). Anything else is not a decision.
 */
export function taskDecision(message: Message): TaskDecision | undefined {
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'data') {
      const data: unknown = content.value;
      if (typeof data !== 'object' || data === null || Array.isArray(data)) continue;
      const fields = data as Record<string, unknown>;
      const decision = decisionWord(fields.decision);
      if (decision)
        return {
          decision,
          ...optionalText(fields, 'approvalId'),
          ...optionalText(fields, 'callId'),
          ...optionalText(fields, 'feedback'),
        };
    }
    if (content?.$case === 'text') {
      const decision = decisionWord(content.value);
      if (decision) return { decision };
    }
  }
  return undefined;
}
