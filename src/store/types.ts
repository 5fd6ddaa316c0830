import type { CadreEvent } from '../events/types.js';
import type { Usage } from '../model/types.js';
import type { RunState } from '../contracts/run-state.js';
import type {
  Action,
  ActionStatus,
  ApiToken,
  Approval,
  ApprovalDecision,
  ApprovalStatus,
  AuditEntry,
  AuditInput,
  AuditVerification,
  Grant,
  ListedToken,
  NamedGrant,
  MessageRole,
  Run,
  RunEvent,
  RunJob,
  RunStatus,
  StartExtras,
  Thread,
  ThreadMessage,
  User,
} from './records.js';

export type * from './records.js';

export interface NewRun {
  /** Defaults to a new UUIDv7; pass the executor's run id to keep one id everywhere. */
  id?: string;
  threadId: string;
  userId: string;
  agent: string;
  status?: RunStatus;
  definitionSnapshot: unknown;
  definitionHash: string;
  model: string;
  state?: RunState | null;
  job?: RunJob;
}

export interface RunPatch {
  status?: RunStatus;
  state?: RunState | null;
  summary?: string;
  model?: string;
  usage?: Usage;
  errorCode?: string | null;
  job?: RunJob | null;
  /** Clears the owner and lease (the run finished, parked, or was handed back). */
  release?: boolean;
}

/** Conditions an update of a run must meet, checked in the same statement. */
export interface RunGuard {
  expectedStatus?: RunStatus | readonly RunStatus[];
  /** Only while this worker still owns the run. */
  owner?: string;
}

export interface NewAction {
  runId: string;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  inputHash: string;
  status: ActionStatus;
  requiresApproval: boolean;
}

export interface ActionTransition {
  /** The status the caller believes the action is in; anything else makes the transition fail. */
  from: ActionStatus | readonly ActionStatus[];
  to: ActionStatus;
  output?: unknown;
  errorCode?: string;
  errorMessage?: string;
}

export type NewApproval = Pick<
  Approval,
  'runId' | 'actionId' | 'callId' | 'tool' | 'inputHash' | 'definitionHash' | 'userId'
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

export interface Resolution {
  approvalId: string;
  /** Only this user's approvals can be resolved; another user's is "not_found". */
  userId: string;
  decision: ApprovalDecision;
  feedback?: string;
  /** false: the call no longer matches what was approved; it is rejected whatever the decision. */
  matches?: boolean;
  /** "Always allow" grants stored with an approving decision, for the agent of the approval's run. */
  grants?: ReadonlyArray<{
    tool: string;
    recipient: string;
    /** The subagent whose call earned it; absent: the run's own agent. */
    agent?: string;
  }>;
}

export interface NewGrant {
  userId: string;
  /** The agent the grant covers. */
  agent: string;
  tool: string;
  recipient: string;
  /** The name of the person who set it. */
  setBy?: string;
}

export interface EnqueueRun extends StartExtras {
  userId: string;
  /** The user's thread to continue; a new thread titled `title` when absent. */
  threadId?: string;
  title: string;
  prompt: string;
  record?: boolean;
  agent: string;
  definitionSnapshot: unknown;
  definitionHash: string;
  model: string;
}

/** Events numbered by the run's owner: while it holds the run, nobody else appends to its log. */
export interface OwnedEvents {
  firstSeq: number;
  events: readonly CadreEvent[];
}

/** How a run ends: its status, summary, usage and the assistant's reply. */
export interface RunEnding {
  status: Extract<RunStatus, 'completed' | 'failed' | 'cancelled'>;
  summary: string;
  usage: Usage;
  errorCode?: string;
  state?: RunState;
  /** The assistant's reply in the thread. */
  message?: string;
}

/**
 * A run its own process started and stores once it has something to keep:
 * thread (new, with this id, or the user's own), prompt, run and its
 * events so far, in one transaction, either still owned by that process or
 * already finished.
 */
export interface RecordRun extends StartExtras {
  runId: string;
  userId: string;
  thread: { id: string; title: string; existing: boolean };
  prompt: string;
  record?: boolean;
  agent: string;
  definitionSnapshot: unknown;
  definitionHash: string;
  model: string;
  /** Numbered from 1. */
  events: readonly CadreEvent[];
  outcome:
    | { kind: 'owned'; owner: string; leaseMs: number; state: RunState | null }
    | ({ kind: 'finished' } & RunEnding);
}

export interface Enqueued {
  thread: Thread;
  message: ThreadMessage;
  run: Run;
}

/** A run a worker now owns; `interrupted` lists the dead owner's effects of unknown outcome. */
export interface Claim {
  run: Run;
  takenOver: boolean;
  interrupted: Action[];
}

export interface ParkRun {
  runId: string;
  owner: string;
  state: RunState;
  summary: string;
  /** The assistant's message in the thread ("I need your approval to: …"). */
  message: string;
  approvals: ReadonlyArray<Omit<NewApproval, 'runId'>>;
  /** The owner's events not stored yet, written with the approvals. */
  events?: OwnedEvents;
}

export interface FinishRun extends RunEnding {
  runId: string;
  owner: string;
  /** The owner's events not stored yet, written with the ending. */
  events?: OwnedEvents;
}

/** A run and the owner token of the claim that holds it (unique per claim, never reused). */
export interface Lease {
  runId: string;
  owner: string;
}

export interface LeaseRenewal {
  /** Runs still owned; the rest were taken over and must stop here. */
  kept: string[];
  /** Owned runs a person asked to cancel. */
  cancelRequested: string[];
}

/** The outcome of a compare-and-set: `status_mismatch` carries the status found instead. */
export type Transition<T, S extends string> =
  | { ok: true; value: T }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'status_mismatch'; status: S };

export type ResolveResult =
  | {
      ok: true;
      approval: Approval;
      /** The batch is fully decided and the run went back to `queued`. */
      resumed: boolean;
    }
  | { ok: false; reason: 'not_found' | 'already_resolved' };

/** Which tokens `listTokens` answers; both fields narrow, none lists every token. */
export interface TokenFilter {
  userId?: string;
  userName?: string;
}

export type RevokeTokenResult =
  | {
      ok: true;
      token: ListedToken;
      /** It was revoked before; `token.revokedAt` is that first time. */
      alreadyRevoked: boolean;
    }
  | { ok: false; reason: 'not_found' }
  /** The prefix names several tokens (at most 10 listed). */
  | { ok: false; reason: 'ambiguous'; matches: ListedToken[] };

/** A change another process made: a run's log or status (`run`), or a run queued (`queue`). */
export type RunChange =
  | { kind: 'run'; runId: string }
  | { kind: 'queue' }
  /** Notifications may have been missed (LISTEN was lost and is back): everyone should look again. */
  | { kind: 'resync' };

/**
 * Persistence for the server flow (DESIGN §4). Every backend passes one
 * conformance suite (`testing/store-conformance.ts`). Reads scoped by user
 * answer `undefined` for another user's record, exactly as for a missing one.
 * Writes check the signal before they start and then run to completion.
 */
export interface Store {
  /** A new time-ordered id (UUIDv7) from the same source as the store's own. */
  newId(): string;
  /** Returns the user with this name, creating it on first use. */
  ensureUser(name: string, signal?: AbortSignal): Promise<User>;
  /** The plaintext token is returned once and never stored. */
  createToken(userId: string, signal?: AbortSignal): Promise<{ token: string; record: ApiToken }>;
  /** Looks the token up by its SHA-256 and notes when it was last used; a revoked token finds nobody. */
  findUserByToken(token: string, signal?: AbortSignal): Promise<User | undefined>;
  /** Tokens, revoked ones included, oldest first; never the token, only a prefix of its hash. */
  listTokens(filter?: TokenFilter, signal?: AbortSignal): Promise<ListedToken[]>;
  /** Revokes the token with this id, or the one whose hash starts with these hex digits (at least 6). */
  revokeToken(idOrPrefix: string, signal?: AbortSignal): Promise<RevokeTokenResult>;

  createThread(input: { userId: string; title: string }, signal?: AbortSignal): Promise<Thread>;
  getThread(userId: string, threadId: string, signal?: AbortSignal): Promise<Thread | undefined>;
  /** Most recently updated first. */
  listThreads(
    userId: string,
    options?: { limit?: number },
    signal?: AbortSignal,
  ): Promise<Thread[]>;
  /** Appends at the end of the thread and bumps its `updatedAt`. */
  appendMessage(
    input: { threadId: string; role: MessageRole; content: string; runId?: string },
    signal?: AbortSignal,
  ): Promise<ThreadMessage>;
  /** The last `limit` messages of the user's thread, oldest first; undefined when it is not theirs. */
  readHistory(
    userId: string,
    threadId: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<ThreadMessage[] | undefined>;
  /** The snapshot stored for a definition hash (see Run.definitionHash). */
  getDefinition(hash: string, signal?: AbortSignal): Promise<unknown>;
  /** The last `limit` messages (default 50), oldest first. */
  listMessages(
    threadId: string,
    options?: { limit?: number },
    signal?: AbortSignal,
  ): Promise<ThreadMessage[]>;

  createRun(input: NewRun, signal?: AbortSignal): Promise<Run>;
  getRun(userId: string, runId: string, signal?: AbortSignal): Promise<Run | undefined>;
  /** Compare-and-set when `expectedStatus` is given; `finishedAt` is set on completed / failed. */
  updateRun(
    runId: string,
    patch: RunPatch,
    guard?: RunGuard,
    signal?: AbortSignal,
  ): Promise<Transition<Run, RunStatus>>;

  /** One transaction: thread (new or the user's), the prompt message, the run `queued`. */
  enqueueRun(input: EnqueueRun, signal?: AbortSignal): Promise<Enqueued | undefined>;
  /** Stores a run this process started (see RecordRun); undefined when the thread is not the user's. */
  recordRun(input: RecordRun, signal?: AbortSignal): Promise<Enqueued | undefined>;
  /** The oldest run needing a worker (queued, or its owner's lease expired), now leased to `owner`. */
  claimRun(owner: string, leaseMs: number, signal?: AbortSignal): Promise<Claim | undefined>;
  /** Extends these leases; says which runs were lost and which were asked to cancel. */
  renewLeases(
    leases: readonly Lease[],
    leaseMs: number,
    signal?: AbortSignal,
  ): Promise<LeaseRenewal>;
  /** Ends these leases now (shutdown), so another process takes the runs over at once. */
  expireLeases(leases: readonly Lease[]): Promise<void>;
  /** Parks the run for approval in one transaction (approvals, message, status), if `owner` still holds it. */
  parkRun(
    input: ParkRun,
    signal?: AbortSignal,
  ): Promise<{ run: Run; approvals: Approval[] } | undefined>;
  /** Ends the run in one transaction (reply, status), if `owner` still holds it. */
  finishRun(input: FinishRun, signal?: AbortSignal): Promise<Run | undefined>;
  /** Ends an idle run (queued / awaiting approval) or flags a driven one for its owner to stop. */
  requestCancel(userId: string, runId: string, signal?: AbortSignal): Promise<Run | undefined>;
  /** Resolves to the run ids whose log or status changed, from any process; undefined where only polling works. */
  subscribe?(listener: (change: RunChange) => void): Promise<() => Promise<void>>;

  /** Idempotent per (runId, callId): a second create returns the action already stored. */
  createAction(input: NewAction, signal?: AbortSignal): Promise<Action>;
  getAction(actionId: string, signal?: AbortSignal): Promise<Action | undefined>;
  /** In creation order. */
  listActions(runId: string, signal?: AbortSignal): Promise<Action[]>;
  /** Compare-and-set on the current status: of two racing callers exactly one wins. */
  transitionAction(
    actionId: string,
    transition: ActionTransition,
    signal?: AbortSignal,
  ): Promise<Transition<Action, ActionStatus>>;

  /** Creates the approvals of one turn as one batch (one shared batchId), atomically. */
  createApprovals(items: readonly NewApproval[], signal?: AbortSignal): Promise<Approval[]>;
  getApproval(
    userId: string,
    approvalId: string,
    signal?: AbortSignal,
  ): Promise<Approval | undefined>;
  /** This user's approvals, oldest first. */
  listApprovals(userId: string, filter?: ApprovalFilter, signal?: AbortSignal): Promise<Approval[]>;
  /** One page of this user's pending approvals, oldest first, in one statement. */
  listPendingApprovals(
    userId: string,
    page: PendingPageRequest,
    signal?: AbortSignal,
  ): Promise<PendingApprovalPage>;
  /** Compare-and-set on `pending` (of two racing resolves exactly one is ok), the action's decision and the run's resume, in one transaction. */
  resolveApproval(resolution: Resolution, signal?: AbortSignal): Promise<ResolveResult>;

  /** Idempotent; the recipient is normalised (trimmed, lower-cased). */
  addGrant(input: NewGrant, signal?: AbortSignal): Promise<Grant>;
  /** Every grant of the user, every agent's, oldest first. */
  listGrants(userId: string, signal?: AbortSignal): Promise<Grant[]>;
  hasGrant(
    userId: string,
    scope: { agent: string; tool: string; recipient: string },
    signal?: AbortSignal,
  ): Promise<boolean>;
  /** Undoes one of the user's grants; false when the user has no grant with that id. */
  revokeGrant(userId: string, grantId: string, signal?: AbortSignal): Promise<boolean>;
  /** Every user's grants, or one user's by name, with the user's name (`cadre grants list`). */
  listAllGrants(filter: { userName?: string }, signal?: AbortSignal): Promise<NamedGrant[]>;
  /** Undoes a grant whoever's it is (`cadre grants revoke`); undefined when there is none. */
  revokeAnyGrant(grantId: string, signal?: AbortSignal): Promise<NamedGrant | undefined>;

  /** Appends in order; the store assigns each event the run's next seq. */
  appendEvents(
    runId: string,
    events: readonly CadreEvent[],
    signal?: AbortSignal,
  ): Promise<RunEvent[]>;
  /** Writes events the run's owner numbered itself (see OwnedEvents); undefined when `owner` lost the run. */
  writeOwnedEvents(
    runId: string,
    owner: string,
    owned: OwnedEvents,
    signal?: AbortSignal,
  ): Promise<RunEvent[] | undefined>;
  /** Events with seq > `after` (default 0), at most `limit` (default 1000), in order. */
  readEvents(
    runId: string,
    options?: { after?: number; limit?: number },
    signal?: AbortSignal,
  ): Promise<RunEvent[]>;

  /** Appends one entry to the hash chain; concurrent appends from several processes form one chain. */
  appendAudit(entry: AuditInput, signal?: AbortSignal): Promise<AuditEntry>;
  listAudit(
    options?: { runId?: string; after?: number; limit?: number },
    signal?: AbortSignal,
  ): Promise<AuditEntry[]>;
  /** Walks the whole chain: seq contiguity, prevHash links, each hash, and the stored head. */
  verifyAudit(signal?: AbortSignal): Promise<AuditVerification>;

  close(): Promise<void>;
}
