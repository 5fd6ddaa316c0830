import { CadreError } from '../errors/index.js';
import { canonicalHash } from '../util/canonical-json.js';
import { sanitizeMessage } from './sanitize.js';
import type { PolicyDecision, PolicyMode } from './types.js';

/** Where the call got to when the entry was written. `not_executed`: stopped by policy. */
export type ExecutionFact =
  | { status: 'not_executed' }
  | { status: 'awaiting_confirmation' }
  | { status: 'executing' }
  | { status: 'completed' }
  /** The person's feedback is not recorded: it may quote the content. `by` names them. */
  | { status: 'rejected'; by?: string }
  | { status: 'failed'; error?: unknown; errorCode?: string };

export type ExecutionStatus = ExecutionFact['status'];

type Instant = Date | string;

export interface AuditFacts {
  runId?: string;
  actionId?: string;
  modelName: string;
  toolName: string;
  /** The normalised arguments (the raw ones when normalisation refused them); only their hash is kept. */
  args: unknown;
  decision: PolicyDecision;
  approvalId?: string;
  execution: ExecutionFact;
  timestamps: { decidedAt: Instant; startedAt?: Instant; finishedAt?: Instant };
}

/** The audit fields the API publishes; structurally a store `AuditInput` (plus timestamps). */
export interface AuditFields {
  runId?: string;
  actionId?: string;
  modelName: string;
  toolName: string;
  inputHash: string;
  policyDecision: PolicyMode;
  approvalId?: string;
  executionStatus: ExecutionStatus;
  errorCode?: string;
  /** Sanitised: no addresses, quoted content (subjects, titles, bodies) or URL credentials. */
  message: string;
  timestamps: { decidedAt: string; startedAt?: string; finishedAt?: string };
}

const iso = (at: Instant): string => (typeof at === 'string' ? at : at.toISOString());

/** Builds one audit record from what happened to a call. Pure: time comes in with the facts. */
export function buildAuditEntry(facts: AuditFacts): AuditFields {
  const reason = facts.decision.mode === 'allow' ? '' : sanitizeMessage(facts.decision.reason);
  const { message, errorCode } = describe(facts.toolName, facts.execution, reason);
  const { decidedAt, startedAt, finishedAt } = facts.timestamps;
  return {
    ...(facts.runId === undefined ? {} : { runId: facts.runId }),
    ...(facts.actionId === undefined ? {} : { actionId: facts.actionId }),
    modelName: facts.modelName,
    toolName: facts.toolName,
    inputHash: canonicalHash(facts.args ?? null),
    policyDecision: facts.decision.mode,
    ...(facts.approvalId === undefined ? {} : { approvalId: facts.approvalId }),
    executionStatus: facts.execution.status,
    ...(errorCode === undefined ? {} : { errorCode }),
    message,
    timestamps: {
      decidedAt: iso(decidedAt),
      ...(startedAt === undefined ? {} : { startedAt: iso(startedAt) }),
      ...(finishedAt === undefined ? {} : { finishedAt: iso(finishedAt) }),
    },
  };
}

function describe(
  tool: string,
  execution: ExecutionFact,
  reason: string,
): { message: string; errorCode?: string } {
  switch (execution.status) {
    case 'not_executed':
      return { message: `${tool} refused by policy: ${reason}`, errorCode: 'policy_error' };
    case 'awaiting_confirmation':
      return { message: `${tool} awaiting approval: ${reason}` };
    case 'executing':
      return { message: `${tool} executing` };
    case 'completed':
      return { message: `${tool} completed` };
    case 'rejected':
      return {
        message: `${tool} rejected by ${execution.by ? sanitizeMessage(execution.by) : 'the approver'}`,
      };
    case 'failed': {
      const error = execution.error;
      const code =
        execution.errorCode ?? (error instanceof CadreError ? error.code : 'internal_error');
      // Only our own errors carry messages meant to be shown; others may hold anything.
      const detail = error instanceof CadreError ? `: ${sanitizeMessage(error.message)}` : '';
      return { message: `${tool} failed${detail}`, errorCode: code };
    }
    default:
      return execution satisfies never;
  }
}
