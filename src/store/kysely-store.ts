import type { Kysely } from 'kysely';
import type { Pool } from 'pg';
import type { CadreEvent } from '../events/types.js';
import { assertAuditKey } from './audit-chain.js';
import { createIdSource } from './id-source.js';
import * as actions from './operations/actions.js';
import * as approvals from './operations/approvals.js';
import * as pendingApprovals from './operations/pending-approvals.js';
import * as audit from './operations/audit.js';
import * as definitions from './operations/definitions.js';
import * as ownedEvents from './operations/owned-events.js';
import * as recorded from './operations/record-run.js';
import * as events from './operations/events.js';
import * as grants from './operations/grants.js';
import * as outcome from './operations/run-outcome.js';
import * as queue from './operations/run-queue.js';
import * as runs from './operations/runs.js';
import * as threads from './operations/threads.js';
import * as tokens from './operations/tokens.js';
import * as users from './operations/users.js';
import type { AuditInput, MessageRole } from './records.js';
import type { Database } from './schema/database.js';
import { listenWithReconnect } from './postgres-listener.js';
import { groupCommits, type StoreContext, type StoreDialect } from './store-context.js';
import type {
  ActionTransition,
  ApprovalFilter,
  EnqueueRun,
  Lease,
  FinishRun,
  ParkRun,
  RunChange,
  RunGuard,
  NewAction,
  NewApproval,
  NewGrant,
  NewRun,
  OwnedEvents,
  PendingPageRequest,
  RecordRun,
  Resolution,
  RunPatch,
  Store,
  TokenFilter,
} from './types.js';

/** The one `Store` implementation: the same queries over SQLite and PostgreSQL. */
export class KyselyStore implements Store {
  /** Exposed for tests and tooling that inspect the tables directly. */
  readonly db: Kysely<Database>;
  readonly dialect: StoreDialect;
  private readonly context: StoreContext;

  private readonly pool: Pool | undefined;

  /**
   * `pool`: PostgreSQL's, for LISTEN (a change made by any process reaches every subscriber).
   * `auditKey`: keys the audit chain; copied, so the caller may wipe its own buffer.
   */
  constructor(
    db: Kysely<Database>,
    dialect: StoreDialect,
    pool?: Pool,
    options: { auditKey?: Buffer } = {},
  ) {
    this.db = db;
    this.dialect = dialect;
    this.pool = pool;
    if (options.auditKey) assertAuditKey(options.auditKey);
    const auditKey = options.auditKey ? Buffer.from(options.auditKey) : undefined;
    this.context = {
      db,
      dialect,
      newId: createIdSource(),
      auditKey,
      knownDefinitions: new Set(),
      grouped: groupCommits({ db, dialect }),
    };
    if (pool)
      this.subscribe = async (listener) => {
        const stop = await listenWithReconnect({
          pool,
          channels: [queue.RUN_CHANNEL, queue.QUEUE_CHANNEL],
          onNotification: (channel, payload) => {
            if (channel === queue.QUEUE_CHANNEL) listener({ kind: 'queue' });
            else if (payload) listener({ kind: 'run', runId: payload });
          },
          onResubscribed: () => listener({ kind: 'resync' }),
        });
        this.listeners.add(stop);
        return async () => {
          this.listeners.delete(stop);
          await stop();
        };
      };
  }

  /** LISTEN loops: closing the store stops them (the pool waits for their connections otherwise). */
  private readonly listeners = new Set<() => Promise<void>>();

  subscribe?: (listener: (change: RunChange) => void) => Promise<() => Promise<void>>;

  newId = (): string => this.context.newId();

  ensureUser = (name: string, signal?: AbortSignal) => users.ensureUser(this.context, name, signal);
  createToken = (userId: string, signal?: AbortSignal) =>
    users.createToken(this.context, userId, signal);
  findUserByToken = (token: string, signal?: AbortSignal) =>
    users.findUserByToken(this.context, token, signal);
  listTokens = (filter?: TokenFilter, signal?: AbortSignal) =>
    tokens.listTokens(this.context, filter ?? {}, signal);
  revokeToken = (idOrPrefix: string, signal?: AbortSignal) =>
    tokens.revokeToken(this.context, idOrPrefix, signal);

  createThread = (input: { userId: string; title: string }, signal?: AbortSignal) =>
    threads.createThread(this.context, input, signal);
  getThread = (userId: string, threadId: string, signal?: AbortSignal) =>
    threads.getThread(this.context, userId, threadId, signal);
  listThreads = (userId: string, options?: { limit?: number }, signal?: AbortSignal) =>
    threads.listThreads(this.context, userId, options?.limit, signal);
  appendMessage = (
    input: { threadId: string; role: MessageRole; content: string; runId?: string },
    signal?: AbortSignal,
  ) => threads.appendMessage(this.context, input, signal);
  readHistory = (userId: string, threadId: string, limit: number, signal?: AbortSignal) =>
    threads.readHistory(this.context, userId, threadId, limit, signal);
  getDefinition = (hash: string, signal?: AbortSignal) =>
    definitions.getDefinition(this.context, hash, signal);
  listMessages = (threadId: string, options?: { limit?: number }, signal?: AbortSignal) =>
    threads.listMessages(this.context, threadId, options?.limit, signal);

  createRun = (input: NewRun, signal?: AbortSignal) => runs.createRun(this.context, input, signal);
  getRun = (userId: string, runId: string, signal?: AbortSignal) =>
    runs.getRun(this.context, userId, runId, signal);
  updateRun = (runId: string, patch: RunPatch, guard?: RunGuard, signal?: AbortSignal) =>
    runs.updateRun(this.context, runId, patch, guard ?? {}, signal);

  enqueueRun = (input: EnqueueRun, signal?: AbortSignal) =>
    queue.enqueueRun(this.context, input, signal);
  recordRun = (input: RecordRun, signal?: AbortSignal) =>
    recorded.recordRun(this.context, input, signal);
  claimRun = (owner: string, leaseMs: number, signal?: AbortSignal) =>
    queue.claimRun(this.context, owner, leaseMs, signal);
  renewLeases = (leases: readonly Lease[], leaseMs: number, signal?: AbortSignal) =>
    queue.renewLeases(this.context, leases, leaseMs, signal);
  expireLeases = (leases: readonly Lease[]) => queue.expireLeases(this.context, leases);
  parkRun = (input: ParkRun, signal?: AbortSignal) => outcome.parkRun(this.context, input, signal);
  finishRun = (input: FinishRun, signal?: AbortSignal) =>
    outcome.finishRun(this.context, input, signal);
  requestCancel = (userId: string, runId: string, signal?: AbortSignal) =>
    queue.requestCancel(this.context, userId, runId, signal);

  createAction = (input: NewAction, signal?: AbortSignal) =>
    actions.createAction(this.context, input, signal);
  getAction = (actionId: string, signal?: AbortSignal) =>
    actions.getAction(this.context, actionId, signal);
  listActions = (runId: string, signal?: AbortSignal) =>
    actions.listActions(this.context, runId, signal);
  transitionAction = (actionId: string, transition: ActionTransition, signal?: AbortSignal) =>
    actions.transitionAction(this.context, actionId, transition, signal);

  createApprovals = (items: readonly NewApproval[], signal?: AbortSignal) =>
    approvals.createApprovals(this.context, items, signal);
  getApproval = (userId: string, approvalId: string, signal?: AbortSignal) =>
    approvals.getApproval(this.context, userId, approvalId, signal);
  listApprovals = (userId: string, filter?: ApprovalFilter, signal?: AbortSignal) =>
    approvals.listApprovals(this.context, userId, filter ?? {}, signal);
  listPendingApprovals = (userId: string, page: PendingPageRequest, signal?: AbortSignal) =>
    pendingApprovals.listPendingApprovals(this.context, userId, page, signal);
  resolveApproval = (resolution: Resolution, signal?: AbortSignal) =>
    approvals.resolveApproval(this.context, resolution, signal);

  addGrant = (input: NewGrant, signal?: AbortSignal) =>
    grants.addGrant(this.context, input, signal);
  listGrants = (userId: string, signal?: AbortSignal) =>
    grants.listGrants(this.context, userId, signal);
  hasGrant = (
    userId: string,
    scope: { agent: string; tool: string; recipient: string },
    signal?: AbortSignal,
  ) => grants.hasGrant(this.context, userId, scope, signal);
  revokeGrant = (userId: string, grantId: string, signal?: AbortSignal) =>
    grants.revokeGrant(this.context, userId, grantId, signal);
  listAllGrants = (filter: { userName?: string }, signal?: AbortSignal) =>
    grants.listAllGrants(this.context, filter, signal);
  revokeAnyGrant = (grantId: string, signal?: AbortSignal) =>
    grants.revokeAnyGrant(this.context, grantId, signal);

  appendEvents = (runId: string, list: readonly CadreEvent[], signal?: AbortSignal) =>
    events.appendEvents(this.context, runId, list, signal);
  writeOwnedEvents = (runId: string, owner: string, owned: OwnedEvents, signal?: AbortSignal) =>
    ownedEvents.writeOwnedEvents(this.context, runId, owner, owned, signal);
  readEvents = (
    runId: string,
    options?: { after?: number; limit?: number },
    signal?: AbortSignal,
  ) => events.readEvents(this.context, runId, options ?? {}, signal);

  appendAudit = (entry: AuditInput, signal?: AbortSignal) =>
    audit.appendAudit(this.context, entry, signal);
  listAudit = (
    options?: { runId?: string; after?: number; limit?: number },
    signal?: AbortSignal,
  ) => audit.listAudit(this.context, options ?? {}, signal);
  verifyAudit = (signal?: AbortSignal) => audit.verifyAudit(this.context, signal);

  close = async (): Promise<void> => {
    await Promise.all([...this.listeners].map((stop) => stop()));
    this.listeners.clear();
    await this.db.destroy();
  };
}
