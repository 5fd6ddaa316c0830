import { StoredDataError } from '../errors/stored-data-error.js';
import type {
  Action,
  ActionStatus,
  ApiToken,
  Approval,
  ApprovalDecision,
  ApprovalStatus,
  AuditEntry,
  Grant,
  ListedToken,
  MessageRole,
  Run,
  RunStatus,
  Thread,
  ThreadMessage,
  User,
} from './records.js';
import type {
  ActionRow,
  ApiTokenRow,
  ApprovalRow,
  AuditRow,
  GrantRow,
  MessageRow,
  RunRow,
  ThreadRow,
  UserRow,
} from './schema/database.js';
import { parseStoredArgs, parseStoredJob, parseStoredUsage } from './stored-json.js';
import { storedRunState } from './stored-run-state.js';
import { TOKEN_HASH_PREFIX_LENGTH } from './token-prefix.js';
import { emptyUsage, type Usage } from '../model/types.js';

/** Row → record mapping: JSON text parsed, 0/1 to booleans, SQL nulls to absent fields. */

const opt = (value: string | null): string | undefined => value ?? undefined;
const parse = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

export const toUser = (row: UserRow): User => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});

export const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  userId: row.user_id,
  tokenHash: row.token_hash,
  createdAt: row.created_at,
  lastUsedAt: opt(row.last_used_at),
  revokedAt: opt(row.revoked_at),
});

export const toListedToken = (row: ApiTokenRow & { user_name: string }): ListedToken => ({
  id: row.id,
  hashPrefix: row.token_hash.slice(0, TOKEN_HASH_PREFIX_LENGTH),
  userId: row.user_id,
  userName: row.user_name,
  createdAt: row.created_at,
  lastUsedAt: opt(row.last_used_at),
  revokedAt: opt(row.revoked_at),
});

export const toThread = (row: ThreadRow): Thread => ({
  id: row.id,
  userId: row.user_id,
  title: row.title,
  ...(row.agent ? { agent: row.agent } : {}),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const toMessage = (row: MessageRow): ThreadMessage => ({
  id: row.id,
  threadId: row.thread_id,
  seq: Number(row.seq),
  role: row.role as MessageRole,
  content: row.content,
  runId: opt(row.run_id),
  createdAt: row.created_at,
});

export const toRun = (row: RunRow): Run =>
  runOfRow(row, {
    state: row.state === null ? null : storedRunState(row.id, row.state),
    usage: parseStoredUsage(row.usage),
    job: row.job === null ? undefined : parseStoredJob(row.id, row.job),
  });

/** A run from its row and its JSON columns already as values (a run just written need not parse them back). */
export const runOfRow = (row: RunRow, json: Pick<Run, 'state' | 'usage' | 'job'>): Run => ({
  id: row.id,
  threadId: row.thread_id,
  userId: row.user_id,
  agent: row.agent,
  status: row.status as RunStatus,
  definitionHash: row.definition_hash,
  state: json.state,
  summary: row.summary,
  model: row.model,
  usage: json.usage,
  errorCode: opt(row.error_code),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  finishedAt: opt(row.finished_at),
  eventSeq: Number(row.event_seq),
  owner: opt(row.owner),
  leaseUntil: opt(row.lease_until),
  job: json.job,
  cancelRequested: Number(row.cancel_requested) === 1,
});

/**
 * A row being leased: a job or usage that cannot be read is reported beside
 * the run, not thrown (thrown, it would fail every lease and hold the queue;
 * reported, the worker fails the run naming the field).
 */
export function toLeasedRun(row: RunRow): { run: Run; damaged?: StoredDataError } {
  try {
    return { run: toRun(row) };
  } catch (error) {
    if (!(error instanceof StoredDataError)) throw error;
    const state = row.state === null ? null : storedRunState(row.id, row.state);
    return {
      run: runOfRow(row, { state, usage: usageOrEmpty(row), job: undefined }),
      damaged: error,
    };
  }
}

/** The run's usage, or none counted when the column itself is damaged (a lease reports that). */
function usageOrEmpty(row: RunRow): Usage {
  try {
    return parseStoredUsage(row.usage);
  } catch {
    return emptyUsage();
  }
}

export const toAction = (row: ActionRow): Action => ({
  id: row.id,
  runId: row.run_id,
  callId: row.call_id,
  tool: row.tool,
  args: parseStoredArgs(row.args_json),
  inputHash: row.input_hash,
  status: row.status as ActionStatus,
  requiresApproval: Number(row.requires_approval) === 1,
  output: parse(row.output_json),
  errorCode: opt(row.error_code),
  errorMessage: opt(row.error_message),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  finishedAt: opt(row.finished_at),
});

export const toApproval = (row: ApprovalRow): Approval => ({
  id: row.id,
  runId: row.run_id,
  actionId: row.action_id,
  callId: row.call_id,
  tool: row.tool,
  inputHash: row.input_hash,
  definitionHash: row.definition_hash,
  ...(row.tool_class === null ? {} : { toolClass: row.tool_class }),
  userId: row.user_id,
  batchId: row.batch_id,
  status: row.status as ApprovalStatus,
  decision: (row.decision ?? undefined) as ApprovalDecision | undefined,
  feedback: opt(row.feedback),
  createdAt: row.created_at,
  resolvedAt: opt(row.resolved_at),
});

export const toGrant = (row: GrantRow): Grant => ({
  id: row.id,
  userId: row.user_id,
  agent: row.agent,
  tool: row.tool,
  recipient: row.recipient,
  createdAt: row.created_at,
  ...(row.set_by === null ? {} : { setBy: row.set_by }),
});

export const toAuditEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  seq: Number(row.seq),
  runId: opt(row.run_id),
  actionId: opt(row.action_id),
  modelName: opt(row.model_name),
  toolName: opt(row.tool_name),
  inputHash: opt(row.input_hash),
  policyDecision: opt(row.policy_decision),
  approvalId: opt(row.approval_id),
  executionStatus: opt(row.execution_status),
  errorCode: opt(row.error_code),
  message: row.message,
  createdAt: row.created_at,
  prevHash: row.prev_hash,
  hash: row.hash,
});
