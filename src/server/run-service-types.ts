import type { TraceCarrier } from '../contracts/trace-carrier.js';
import type { CadreEvent } from '../events/types.js';
import type {
  Action,
  ActionStatus,
  Approval,
  ApprovalDecision,
  AuditEntry,
  AuditVerification,
  Run,
  RunEvent,
  Thread,
  ThreadMessage,
} from '../store/types.js';
import type { ForkRequest, TrajectoryView } from './trajectory-view-types.js';
import type { Trajectory } from '../trajectory/types.js';

/**
 * What the HTTP layer asks of the server core. The core owns the store,
 * the agents, policy, approvals, resume and audit; the HTTP layer owns
 * auth, validation of bodies, status codes and wire formats.
 * Errors: ValidationError (400/422), NotFoundError (404), ConflictError (409),
 * ConfigError, ModelError (502), TimeoutError, CancelledError; all CadreError.
 */
export interface RunService {
  /** POST /api/agent/run(/stream): append the prompt to a thread (new if absent) and run until done or awaiting approval. */
  run(request: RunRequest, hooks?: RunHooks): Promise<RunResponse>;
  /** POST /api/agent/approvals/resolve: decide one approval; when its batch is complete the run resumes. */
  resolveApproval(request: ResolveRequest, hooks?: RunHooks): Promise<RunResponse>;
  /** POST /api/runs/:id/cancel: ends a waiting run, or stops a running one wherever it runs. */
  cancelRun(userId: string, runId: string, signal?: AbortSignal): Promise<RunResponse | undefined>;
  /**
   * GET /api/runs/:id/stream: re-attach to a run (after a reload or a disconnect):
   * its stored events after `after`, then new ones as they are written, until it settles.
   */
  followRun(
    userId: string,
    runId: string,
    after: number,
    hooks: RunHooks,
  ): Promise<RunResponse | undefined>;
  /** Every pending approval of the user, page after page (in-process callers; HTTP pages). */
  pendingApprovals(userId: string, signal?: AbortSignal): Promise<ApprovalView[]>;
  /** GET /api/agent/approvals/pending: one page, oldest first. */
  pendingApprovalPage(
    userId: string,
    page: PendingPageQuery,
    signal?: AbortSignal,
  ): Promise<PendingApprovalsView>;
  listThreads(userId: string, signal?: AbortSignal): Promise<Thread[]>;
  /** Another user's thread is undefined (the HTTP layer answers 404). */
  getThread(
    userId: string,
    threadId: string,
    signal?: AbortSignal,
  ): Promise<ThreadView | undefined>;
  getRun(userId: string, runId: string, signal?: AbortSignal): Promise<RunView | undefined>;
  /** Events after `after` (a seq), for re-attaching after a disconnect; undefined when the run is not the user's. */
  readEvents(
    userId: string,
    runId: string,
    after: number,
    signal?: AbortSignal,
  ): Promise<RunEvent[] | undefined>;
  listAgents(): Promise<AgentView[]>;
  /**
   * GET /api/runs/:id/trajectory: a recorded run, step by step; undefined when the
   * run is not the user's, NotFoundError when it was not recorded.
   */
  trajectory(
    userId: string,
    runId: string,
    signal?: AbortSignal,
  ): Promise<TrajectoryView | undefined>;
  /**
   * GET /api/runs/:id/trajectory/export: the recorded run as a trajectory file
   * (`cadre replay` reads it); undefined and NotFoundError as for `trajectory`.
   */
  trajectoryFile(
    userId: string,
    runId: string,
    signal?: AbortSignal,
  ): Promise<Trajectory | undefined>;
  /**
   * POST /api/runs/:id/fork(/stream): a new run (new thread) going on from a recorded
   * run's model step with its prompt edited; undefined when the run is not the user's.
   */
  forkRun(request: ForkRequest, hooks?: RunHooks): Promise<RunResponse | undefined>;
  /** GET /api/grants: the user's "always allow" grants, every agent's, oldest first. */
  listGrants(userId: string, signal?: AbortSignal): Promise<GrantView[]>;
  /** DELETE /api/grants/:id: false when the user has no such grant. */
  revokeGrant(userId: string, grantId: string, signal?: AbortSignal): Promise<boolean>;
  audit(userId: string, runId?: string, signal?: AbortSignal): Promise<AuditEntry[]>;
  verifyAudit(signal?: AbortSignal): Promise<AuditVerification>;
  /**
   * Graceful stop: no new claims; runs in flight get `graceMs` to finish their
   * step, then the rest are handed over (leases expired) for another process.
   */
  drain(graceMs: number): Promise<{ finished: number; handedOver: number }>;
  /** drain(0). */
  close(): Promise<void>;
}

/** A standing "always allow": `agent` may call `tool` for `recipient` (`*`: anyone) without asking. */
export interface GrantView {
  id: string;
  agent: string;
  tool: string;
  recipient: string;
  createdAt: string;
  /** The name of the person who set it. */
  setBy?: string;
}

export interface RunRequest {
  userId: string;
  prompt: string;
  threadId?: string;
  /** An agent discovered in the server's agent folders; default ACTIVE_AGENT_PATH, else the built-in assistant. */
  agent?: string;
  /** Keep a trajectory of this run (stored with the run). */
  record?: boolean;
  /** Structured inputs (the agent's inputConfig), checked before the run is queued; absent: the prompt is the input. */
  inputs?: Record<string, unknown>;
  /** The request's W3C trace context (`traceparent`, `tracestate`): the run's spans continue it. */
  trace?: TraceCarrier;
}

export interface ResolveRequest {
  userId: string;
  /** The deciding person's name, for the audit trail (looked up when absent). */
  userName?: string;
  approvalId: string;
  decision: ApprovalDecision;
  feedback?: string;
}

export interface RunHooks {
  /** Every event of the run as it is stored, with its stored seq (the NDJSON stream writes these). */
  onEvent?: (event: CadreEvent) => void;
  /** The run is queued (or requeued): its ids are known before any event. */
  onStarted?: (ids: { runId: string; threadId: string }) => void;
  /** Detaches: the run itself goes on. */
  signal?: AbortSignal;
}

/** The runtime spec's response shape (extra fields allowed). */
export interface RunResponse {
  ok: true;
  runId: string;
  threadId: string;
  /** `running`: still being driven (a re-attach that was cut short, or a cancel still in flight). */
  status: 'completed' | 'awaiting_confirmation' | 'failed' | 'cancelled' | 'running';
  summary: string;
  /** Why a failed run failed (`model_error`, `max_turns`, `internal`…); absent otherwise. */
  errorCode?: string;
  actions: ActionView[];
  /** Approvals waiting for a decision, when status is awaiting_confirmation. */
  approvals: ApprovalView[];
}

export interface ActionView {
  actionId: string;
  tool: string;
  status: ActionStatus;
  requiresApproval: boolean;
  approvalId?: string;
}

export interface PendingPageQuery {
  /** The last approval id of the page before (the HTTP layer's cursor); absent for the first page. */
  after?: string;
  limit: number;
}

export interface PendingApprovalsView {
  approvals: ApprovalView[];
  /** The `after` of the next page; absent on the last page. */
  next?: string;
}

/** What an approval card shows: what will be done, why, and how to decide. */
export interface ApprovalView {
  approvalId: string;
  runId: string;
  threadId: string;
  tool: string;
  /** The tool's one-line description of the call, made visible (`visibleText`: controls, bidi and invisible characters escaped). */
  preview: string;
  /** The policy's reason for asking. */
  reason: string;
  /**
   * A subagent's call: who asks, from the run's agent to the tool
   * (`['assistant', 'mailer', 'gmail_send']`; without the run's agent where it is not read).
   */
  path?: string[];
  /** Several calls of one turn share a batch; the run goes on when all are decided. */
  batchId: string;
  createdAt: string;
  decisions: ApprovalDecision[];
}

export interface ThreadView {
  thread: Thread;
  messages: ThreadMessage[];
  pendingApprovals: ApprovalView[];
  /** What each run of the listed messages did, so a reloaded page shows its steps and decisions. */
  runs?: ThreadRunView[];
}

/** One run of a thread: its tool steps as stored events, and the decisions taken on its approvals. */
export interface ThreadRunView {
  runId: string;
  /** Tool calls and results, approvals asked and resolved, subagents; in order, text left out. */
  steps: CadreEvent[];
  /** Decided approvals, oldest first (pending ones are in `pendingApprovals`). */
  decisions: DecisionView[];
}

/** Who decided an approval, how and when. */
export interface DecisionView {
  approvalId: string;
  callId: string;
  tool: string;
  /** When the approval was asked; the thread message asking for it has the same time. */
  askedAt: string;
  decision: ApprovalDecision;
  /** The name of the person who decided (approvals are decided by the run's owner). */
  decidedBy: string;
  decidedAt: string;
  feedback?: string;
}

export interface RunView {
  run: Omit<Run, 'state' | 'job'>;
  actions: Action[];
  approvals: Approval[];
  events: RunEvent[];
}

export interface AgentView {
  name: string;
  description: string;
  origin: string;
  /** The agent a run gets when it names none (listed first). */
  default?: true;
  displayName?: string;
  /** Example requests, for a page to offer as first prompts. */
  examples?: string[];
  /** Structured inputs (the agent's inputConfig), in order; absent: the agent takes a prompt. */
  inputs?: AgentInputView[];
  /** The tools the agent is granted (its toolConfig), so a client can tell an agent that only reads. */
  tools?: string[];
  /** The JSON Schema of the agent's structured answer (outputConfig), when its definition sets one. */
  outputSchema?: Record<string, unknown>;
}

/** One input of an agent's inputConfig, enough to build a form field. */
export interface AgentInputView {
  name: string;
  /** 'string' | 'number' | 'integer' | 'boolean' | 'string[]' | 'number[]' | 'array' | 'object'… */
  type: string;
  required: boolean;
  description?: string;
}
