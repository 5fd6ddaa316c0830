import type { ActionStore } from './aggregates/action-store.js';
import type { ApprovalStore } from './aggregates/approval-store.js';
import type { AuditStore } from './aggregates/audit-store.js';
import type { AuthStore } from './aggregates/auth-store.js';
import type { EventStore } from './aggregates/event-store.js';
import type { GrantStore } from './aggregates/grant-store.js';
import type { QueueStore } from './aggregates/queue-store.js';
import type { RunStore } from './aggregates/run-store.js';
import type { ThreadStore } from './aggregates/thread-store.js';

export type * from './records.js';
export type * from './aggregates/action-store.js';
export type * from './aggregates/approval-store.js';
export type * from './aggregates/audit-store.js';
export type * from './aggregates/auth-store.js';
export type * from './aggregates/call-options.js';
export type * from './aggregates/event-store.js';
export type * from './aggregates/grant-store.js';
export type * from './aggregates/queue-store.js';
export type * from './aggregates/run-store.js';
export type * from './aggregates/thread-store.js';
export type * from './aggregates/transition.js';

/**
 * Persistence for the server flow, one aggregate per field. Every backend
 * passes one conformance suite (`conformance/store-conformance.ts`, public
 * as `cadre/store-conformance`). Reads scoped by user answer `undefined`
 * for another user's record, exactly as for a missing one. Every call takes the record's id first, then its data, then
 * one options bag (`{ signal }`); writes check the signal before they start
 * and then run to completion.
 */
export interface Store {
  readonly auth: AuthStore;
  readonly threads: ThreadStore;
  readonly runs: RunStore;
  readonly queue: QueueStore;
  readonly actions: ActionStore;
  readonly approvals: ApprovalStore;
  readonly grants: GrantStore;
  readonly events: EventStore;
  readonly audit: AuditStore;

  /** A new time-ordered id (UUIDv7) from the same source as the store's own. */
  newId(): string;
  close(): Promise<void>;
}
