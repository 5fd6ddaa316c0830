import type { TraceCarrier } from '../contracts/trace-carrier.js';
import type { CadreEvent } from '../events/types.js';
import type { Message, Usage } from '../model/types.js';
import type { ApprovalBinding, RunState } from '../contracts/run-state.js';

/** The records the server persists. Times are ISO 8601 strings (UTC). */

export type RunStatus =
  | 'queued'
  | 'planning'
  | 'awaiting_confirmation'
  | 'executing'
  | 'completed'
  | 'failed'
  /** A person (or the server shutting a run down for good) stopped it: not a failure. */
  | 'cancelled';

/** `interrupted`: the process running it died mid-call, so whether it happened is unknown. */
export type ActionStatus =
  | 'planned'
  | 'awaiting_confirmation'
  | 'executing'
  | 'completed'
  | 'failed'
  | 'rejected'
  | 'interrupted';

/** `stale`: approved, but the call no longer matched what was approved; the person was asked again. */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'stale';
export type ApprovalDecision = 'reject' | 'approve_once' | 'approve_and_always_allow_recipient';
export type MessageRole = 'user' | 'assistant' | 'system';

export interface User {
  id: string;
  /** Unique: `cadre token create --user NAME` finds the user by it. */
  name: string;
  createdAt: string;
}

/** The plaintext token is never stored, only its SHA-256. */
export interface ApiToken {
  id: string;
  userId: string;
  tokenHash: string;
  createdAt: string;
  lastUsedAt?: string;
  /** Set by `cadre token revoke`: the token no longer signs in. */
  revokedAt?: string;
}

/** A token as listed: named by a prefix of its hash, never by the hash or the token itself. */
export interface ListedToken {
  id: string;
  /** The first hex digits of the token's SHA-256: enough to pick it out, nothing to sign in with. */
  hashPrefix: string;
  userId: string;
  userName: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

export interface Thread {
  id: string;
  userId: string;
  title: string;
  /** The agent the thread talks to: its first run's, kept for every follow-up. */
  agent?: string;
  createdAt: string;
  updatedAt: string;
}

export interface ThreadMessage {
  id: string;
  threadId: string;
  /** Position in the thread (1, 2, ...); orders messages written in the same millisecond. */
  seq: number;
  role: MessageRole;
  content: string;
  runId?: string;
  createdAt: string;
}

export interface Run {
  id: string;
  threadId: string;
  userId: string;
  agent: string;
  status: RunStatus;
  /** The definition the run started with (its snapshot: `store.runs.getDefinition`); editing the file never changes it. */
  definitionHash: string;
  /** The loop state to resume from, read when asked; null before the loop has started. */
  state: StoredRunState | null;
  summary: string;
  model: string;
  usage: Usage;
  errorCode?: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
  /** The seq of the last event stored for the run (0 before any). */
  eventSeq: number;
  /** The worker driving the run, while its lease (`leaseUntil`) lasts. */
  owner?: string;
  leaseUntil?: string;
  /** What a worker does when it leases the run; absent once the run is finished or paused. */
  job?: RunJob;
  cancelRequested: boolean;
}

/** A run's stored loop state, parsed and checked only when read (it can be large). */
export interface StoredRunState {
  /**
   * The state, upgraded from an older version. Rejects with a StoredDataError
   * naming the field when the stored state is damaged, a ConfigError when a
   * newer Cadre wrote it.
   */
  read(): Promise<RunState>;
}

/** A run's next step, stored with it so any process can take it. */
export type RunJob =
  | ({
      kind: 'start';
      prompt: string;
      /** The prompt's message seq: history is what the thread held before it. */
      messageSeq: number;
      record?: boolean;
    } & StartExtras)
  /** Approvals decided: per call id, what the person said (rejections carry feedback). */
  | { kind: 'resume'; decisions: Record<string, ResumeDecision> };

/** What a start job may carry besides its prompt. */
export interface StartExtras {
  /** Structured inputs (the agent's inputConfig); absent: the prompt is the only input. */
  inputs?: Record<string, unknown>;
  /** A fork's opening conversation (recorded turns, the edited prompt), used instead of history + prompt. */
  conversation?: Message[];
  /** The trace context of the request that started the run: its spans continue that trace. */
  trace?: TraceCarrier;
}

/**
 * `binding`: what the approval is bound to (the resume runs the call only if
 * it still matches); `ask_again`: the approval was found not to match when it
 * was decided, so the call is not run and the person is asked again.
 */
export type ResumeDecision =
  | { kind: 'approve'; binding?: ApprovalBinding }
  | { kind: 'reject'; feedback?: string }
  | { kind: 'ask_again'; reason: string };

export interface Action {
  id: string;
  runId: string;
  callId: string;
  tool: string;
  /** Kept so an approved call can run later exactly as it was approved. */
  args: Record<string, unknown>;
  inputHash: string;
  status: ActionStatus;
  requiresApproval: boolean;
  /** The tool's result (any JSON), once completed. */
  output?: unknown;
  errorCode?: string;
  errorMessage?: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

export interface Approval {
  id: string;
  runId: string;
  actionId: string;
  callId: string;
  tool: string;
  inputHash: string;
  definitionHash: string;
  /** The tool's side-effect class when the person was asked (absent on approvals stored before it was bound). */
  toolClass?: string;
  userId: string;
  /** Calls awaiting approval in one model turn share a batch; the run goes on when all are decided. */
  batchId: string;
  status: ApprovalStatus;
  decision?: ApprovalDecision;
  feedback?: string;
  createdAt: string;
  resolvedAt?: string;
}

/** "Always allow": `tool` may act on `recipient` (normalised: trimmed, lower-case) without asking. */
/** "Always allow": `agent` may call `tool` for `recipient` (`*`: any) without asking `userId`. */
export interface Grant {
  id: string;
  userId: string;
  /** The agent that earned it; no other agent of the user is covered. */
  agent: string;
  tool: string;
  recipient: string;
  createdAt: string;
  /** The name of the person whose decision set it. */
  setBy?: string;
}

/** A grant with its user's name, for the operator's view of every user. */
export interface NamedGrant extends Grant {
  userName: string;
}

export interface RunEvent {
  runId: string;
  /** Assigned by the store: 1, 2, ... per run, continuing across resumes. */
  seq: number;
  type: string;
  /** The whole event as emitted, with `seq` set to the stored one. */
  event: CadreEvent;
}

/** What a caller writes to the audit log: hashes and codes, never raw arguments or bodies. */
export interface AuditInput {
  runId?: string;
  actionId?: string;
  modelName?: string;
  toolName?: string;
  inputHash?: string;
  policyDecision?: string;
  approvalId?: string;
  executionStatus?: string;
  errorCode?: string;
  /** Already sanitised by the caller; the store caps its length. */
  message: string;
}

export interface AuditEntry extends AuditInput {
  id: string;
  seq: number;
  createdAt: string;
  prevHash: string;
  hash: string;
}

/**
 * Why a chain fails: `hash_mismatch` / `mac_mismatch` an entry edited (public /
 * keyed recipe); `prev_hash_mismatch` a broken link; `seq_gap` a deleted entry;
 * `truncated` entries missing after the last row; `head_mismatch` a head that
 * disagrees with the rows or fails its MAC (rolled back or forged); `unkeyed`
 * nothing a database writer could not recompute vouches for the chain (no key,
 * or the chain was never sealed), brokenAt then being 1.
 */
export type AuditBreak =
  | 'hash_mismatch'
  | 'mac_mismatch'
  | 'prev_hash_mismatch'
  | 'seq_gap'
  | 'truncated'
  | 'head_mismatch'
  | 'unkeyed';

export type AuditVerification =
  { ok: true; count: number } | { ok: false; brokenAt: number; reason: AuditBreak };
