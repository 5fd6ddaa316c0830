/**
 * The JSON the server sends, mirrored from src/server/run-service-types.ts and
 * src/store/records.ts (the page is bundled apart from the Node code, so it
 * keeps its own copy of the wire shapes).
 */

export type RunStatus =
  'queued' | 'planning' | 'awaiting_confirmation' | 'executing' | 'completed' | 'failed';
export type ActionStatus =
  'planned' | 'awaiting_confirmation' | 'executing' | 'completed' | 'failed' | 'rejected';
export type ApprovalDecision = 'reject' | 'approve_once' | 'approve_and_always_allow_recipient';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  thoughtTokens: number;
  totalTokens: number;
}

export interface Thread {
  id: string;
  userId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

export interface ThreadMessage {
  id: string;
  threadId: string;
  seq: number;
  role: 'user' | 'assistant' | 'system';
  content: string;
  runId?: string;
  createdAt: string;
}

export interface ApprovalView {
  approvalId: string;
  runId: string;
  threadId: string;
  tool: string;
  preview: string;
  reason: string;
  batchId: string;
  createdAt: string;
  decisions: ApprovalDecision[];
}

export interface ThreadView {
  thread: Thread;
  messages: ThreadMessage[];
  pendingApprovals: ApprovalView[];
}

export interface ActionView {
  actionId: string;
  tool: string;
  status: ActionStatus;
  requiresApproval: boolean;
  approvalId?: string;
}

export interface RunResponse {
  ok: true;
  runId: string;
  threadId: string;
  status: 'completed' | 'awaiting_confirmation' | 'failed';
  summary: string;
  actions: ActionView[];
  approvals: ApprovalView[];
}

export interface CadreEvent {
  type: string;
  message: string;
  timestamp: string;
  data: Record<string, unknown>;
  runId: string;
  executionId: string;
  parentExecutionId?: string;
  depth: number;
  path: readonly string[];
  seq: number;
}

export interface RunEvent {
  runId: string;
  seq: number;
  type: string;
  event: CadreEvent;
}

export interface RunRecord {
  id: string;
  threadId: string;
  agent: string;
  status: RunStatus;
  summary: string;
  model: string;
  usage: Usage;
  errorCode?: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

export interface ActionRecord {
  id: string;
  callId: string;
  tool: string;
  status: ActionStatus;
  requiresApproval: boolean;
  errorCode?: string;
  createdAt: string;
  finishedAt?: string;
}

export interface ApprovalRecord {
  id: string;
  actionId: string;
  tool: string;
  status: 'pending' | 'approved' | 'rejected';
  decision?: ApprovalDecision;
  createdAt: string;
  resolvedAt?: string;
}

export interface RunView {
  run: RunRecord;
  actions: ActionRecord[];
  approvals: ApprovalRecord[];
  events: RunEvent[];
}

export interface AgentView {
  name: string;
  description: string;
  origin: string;
}

export interface AuditEntry {
  id: string;
  seq: number;
  runId?: string;
  actionId?: string;
  modelName?: string;
  toolName?: string;
  inputHash?: string;
  policyDecision?: string;
  approvalId?: string;
  executionStatus?: string;
  errorCode?: string;
  message: string;
  createdAt: string;
  prevHash: string;
  hash: string;
}

export type AuditVerification =
  { ok: true; count: number } | { ok: false; brokenAt: number; reason: string };

export interface WireError {
  code: string;
  message: string;
}
