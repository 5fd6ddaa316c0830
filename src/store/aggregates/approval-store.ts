import type { Approval, ApprovalDecision, ApprovalStatus } from '../records.js';
import type { CallOptions } from './call-options.js';

export type NewApproval = Pick<
  Approval,
  'runId' | 'actionId' | 'callId' | 'tool' | 'inputHash' | 'definitionHash' | 'userId' | 'toolClass'
>;

export interface ApprovalFilter {
  status?: ApprovalStatus;
  runId?: string;
  threadId?: string;
  batchId?: string;
}

/** Where a page of pending approvals starts, and how long it is. */
export interface PendingPageRequest {
  /** The last approval id of the page before; absent for the first page. */
  after?: string;
  /** At most this many approvals (callers bound it). */
  limit: number;
}

/** A pending approval with what its card shows: the run's thread and the call's arguments. */
export interface PendingApproval {
  approval: Approval;
  threadId: string;
  /** Undefined if the action row is gone. */
  args?: Record<string, unknown>;
}

export interface PendingApprovalPage {
  approvals: PendingApproval[];
  /** Give as `after` for the next page; absent on the last page. */
  next?: string;
}

/** A person's decision on one approval. */
export interface Resolution {
  /** Only this user's approvals can be resolved; another user's is "not_found". */
  userId: string;
  decision: ApprovalDecision;
  feedback?: string;
  /** false: the call is not what the person was shown; an approval becomes `stale` (not run, asked again). */
  matches?: boolean;
  /** "Always allow" grants stored with an approving decision, for the agent of the approval's run. */
  grants?: ReadonlyArray<{
    tool: string;
    recipient: string;
    /** The subagent whose call earned it; absent: the run's own agent. */
    agent?: string;
  }>;
}

export type ResolveResult =
  | {
      ok: true;
      approval: Approval;
      /** The batch is fully decided and the run went back to `queued`. */
      resumed: boolean;
    }
  | { ok: false; reason: 'not_found' | 'already_resolved' };

/** Calls waiting for a person, and their decisions. */
export interface ApprovalStore {
  /** Creates the approvals of one turn as one batch (one shared batchId), atomically. */
  createBatch(items: readonly NewApproval[], options?: CallOptions): Promise<Approval[]>;
  get(approvalId: string, userId: string, options?: CallOptions): Promise<Approval | undefined>;
  /** This user's approvals, oldest first. */
  list(userId: string, filter?: ApprovalFilter, options?: CallOptions): Promise<Approval[]>;
  /** One page of this user's pending approvals, oldest first, in one statement. */
  listPending(
    userId: string,
    page: PendingPageRequest,
    options?: CallOptions,
  ): Promise<PendingApprovalPage>;
  /** Compare-and-set on `pending` (of two racing resolves exactly one is ok), the action's decision and the run's resume, in one transaction. */
  resolve(
    approvalId: string,
    resolution: Resolution,
    options?: CallOptions,
  ): Promise<ResolveResult>;
}
