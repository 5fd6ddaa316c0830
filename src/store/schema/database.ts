/**
 * Row shapes as stored: snake_case columns, ids and JSON as text, times as
 * ISO 8601 text, booleans as 0/1, so one schema serves SQLite and PostgreSQL.
 */
export interface Database {
  users: UserRow;
  api_tokens: ApiTokenRow;
  threads: ThreadRow;
  messages: MessageRow;
  runs: RunRow;
  actions: ActionRow;
  approvals: ApprovalRow;
  grants: GrantRow;
  run_events: RunEventRow;
  audit_log: AuditRow;
  audit_head: AuditHeadRow;
  definitions: DefinitionRow;
}

/** A definition snapshot, stored once per hash (0004). */
export interface DefinitionRow {
  hash: string;
  snapshot: string;
  created_at: string;
}

export interface UserRow {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiTokenRow {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  /** 0005: when the token was revoked; a revoked token finds nobody. */
  revoked_at: string | null;
}

export interface ThreadRow {
  id: string;
  user_id: string;
  title: string;
  /** The agent its runs go to when a request names none; null for a thread that never ran. */
  agent: string | null;
  /** The last message seq handed out; bumping it also serialises appends. */
  message_seq: number;
  created_at: string;
  updated_at: string;
}

export interface MessageRow {
  id: string;
  thread_id: string;
  seq: number;
  role: string;
  content: string;
  run_id: string | null;
  created_at: string;
}

export interface RunRow {
  id: string;
  thread_id: string;
  user_id: string;
  agent: string;
  status: string;
  definition_hash: string;
  state: string | null;
  summary: string;
  model: string;
  usage: string;
  error_code: string | null;
  /** The last event seq handed out for this run. */
  event_seq: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** The worker process driving the run now, while its lease lasts. */
  owner: string | null;
  lease_until: string | null;
  /** JSON RunJob: the next step a worker takes (start, or resume with decisions). */
  job: string | null;
  cancel_requested: number;
}

export interface ActionRow {
  id: string;
  run_id: string;
  call_id: string;
  tool: string;
  args_json: string;
  input_hash: string;
  status: string;
  requires_approval: number;
  output_json: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface ApprovalRow {
  id: string;
  run_id: string;
  action_id: string;
  call_id: string;
  tool: string;
  input_hash: string;
  definition_hash: string;
  /** The tool's side-effect class when the person was asked (0010); null on older rows. */
  tool_class: string | null;
  user_id: string;
  batch_id: string;
  status: string;
  decision: string | null;
  feedback: string | null;
  created_at: string;
  resolved_at: string | null;
}

/** Agent and setter since 0007. */
export interface GrantRow {
  id: string;
  user_id: string;
  agent: string;
  tool: string;
  recipient: string;
  created_at: string;
  /** The name of the person whose decision set it; null when stored directly (grants.add without one). */
  set_by: string | null;
}

export interface RunEventRow {
  run_id: string;
  seq: number;
  type: string;
  json: string;
  created_at: string;
}

export interface AuditRow {
  id: string;
  seq: number;
  run_id: string | null;
  action_id: string | null;
  model_name: string | null;
  tool_name: string | null;
  input_hash: string | null;
  policy_decision: string | null;
  approval_id: string | null;
  execution_status: string | null;
  error_code: string | null;
  message: string;
  created_at: string;
  prev_hash: string;
  hash: string;
}

/** One row (id 1): the chain's last seq and hash. Locking it serialises appends across processes. */
export interface AuditHeadRow {
  id: number;
  seq: number;
  hash: string;
  /** HMAC over seq, hash and keyed_from; null until the chain is keyed (0003). */
  mac: string | null;
  /** First seq written with the key; null while unkeyed (0003). */
  keyed_from: number | null;
}
