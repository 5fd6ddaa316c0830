/**
 * The JSON the server sends: the server's own types, imported type-only
 * (nothing of the Node code is bundled), so the page cannot drift from them.
 */
export type {
  RunStatus,
  ActionStatus,
  ApprovalDecision,
  Thread,
  ThreadMessage,
  RunEvent,
  AuditEntry,
  AuditVerification,
  Action as ActionRecord,
  Approval as ApprovalRecord,
} from '../../../src/store/records.js';
export type { Usage } from '../../../src/model/types.js';
export type {
  CadreEvent,
  CadreEventOf,
  EventDataMap,
  WellKnownEventType,
} from '../../../src/events/types.js';
export type {
  ApprovalView,
  ThreadView,
  ActionView,
  RunResponse,
  RunView,
  AgentView,
  AgentInputView,
  ThreadRunView,
  DecisionView,
} from '../../../src/server/run-service-types.js';
import type { RunView } from '../../../src/server/run-service-types.js';

export type RunRecord = RunView['run'];

export interface WireError {
  code: string;
  message: string;
}
