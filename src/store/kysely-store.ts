import type { Kysely } from 'kysely';
import type { Pool } from 'pg';
import { assertAuditKey } from './audit-chain.js';
import { createIdSource } from './id-source.js';
import * as actions from './operations/actions.js';
import * as approvals from './operations/approvals.js';
import * as pendingApprovals from './operations/pending-approvals.js';
import * as audit from './operations/audit.js';
import * as definitions from './operations/definitions.js';
import * as ownedEvents from './operations/owned-events.js';
import * as saved from './operations/save-run.js';
import * as events from './operations/events.js';
import * as grants from './operations/grants.js';
import * as outcome from './operations/run-outcome.js';
import * as queue from './operations/run-queue.js';
import * as runs from './operations/runs.js';
import * as threads from './operations/threads.js';
import * as tokens from './operations/tokens.js';
import * as users from './operations/users.js';
import type { Database } from './schema/database.js';
import { listenWithReconnect } from './postgres-listener.js';
import { groupCommits, type StoreContext, type StoreDialect } from './store-context.js';
import type {
  ActionStore,
  ApprovalStore,
  AuditStore,
  AuthStore,
  EventStore,
  GrantStore,
  QueueStore,
  RunChange,
  RunStore,
  Store,
  ThreadStore,
} from './types.js';

/** The one `Store` implementation: the same queries over SQLite and PostgreSQL. */
export class KyselyStore implements Store {
  /** Exposed for tests and tooling that inspect the tables directly. */
  readonly db: Kysely<Database>;
  readonly dialect: StoreDialect;
  private readonly context: StoreContext;

  readonly auth: AuthStore;
  readonly threads: ThreadStore;
  readonly runs: RunStore;
  readonly queue: QueueStore;
  readonly actions: ActionStore;
  readonly approvals: ApprovalStore;
  readonly grants: GrantStore;
  readonly events: EventStore;
  readonly audit: AuditStore;

  /** LISTEN loops: closing the store stops them (the pool waits for their connections otherwise). */
  private readonly listeners = new Set<() => Promise<void>>();

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
    if (options.auditKey) assertAuditKey(options.auditKey);
    const auditKey = options.auditKey ? Buffer.from(options.auditKey) : undefined;
    const context: StoreContext = {
      db,
      dialect,
      newId: createIdSource(),
      auditKey,
      knownDefinitions: new Set(),
      grouped: groupCommits({ db, dialect }),
    };
    this.context = context;

    this.auth = {
      ensureUser: (name, o) => users.ensureUser(context, name, o?.signal),
      createToken: (userId, o) => users.createToken(context, userId, o?.signal),
      findUserByToken: (token, o) => users.findUserByToken(context, token, o?.signal),
      listTokens: (filter, o) => tokens.listTokens(context, filter ?? {}, o?.signal),
      revokeToken: (idOrPrefix, o) => tokens.revokeToken(context, idOrPrefix, o?.signal),
    };
    this.threads = {
      create: (thread, o) => threads.createThread(context, thread, o?.signal),
      get: (threadId, userId, o) => threads.getThread(context, userId, threadId, o?.signal),
      list: (userId, query, o) => threads.listThreads(context, userId, query?.limit, o?.signal),
      appendMessage: (threadId, message, o) =>
        threads.appendMessage(context, { ...message, threadId }, o?.signal),
      readHistory: (threadId, userId, limit, o) =>
        threads.readHistory(context, userId, threadId, limit, o?.signal),
      listMessages: (threadId, query, o) =>
        threads.listMessages(context, threadId, query?.limit, o?.signal),
    };
    this.runs = {
      create: (run, o) => runs.createRun(context, run, o?.signal),
      get: (runId, userId, o) => runs.getRun(context, userId, runId, o?.signal),
      update: (runId, patch, guard, o) =>
        runs.updateRun(context, runId, patch, guard ?? {}, o?.signal),
      requestCancel: (runId, userId, o) => queue.requestCancel(context, userId, runId, o?.signal),
      getDefinition: (hash, o) => definitions.getDefinition(context, hash, o?.signal),
    };
    this.queue = {
      enqueue: (run, o) => queue.enqueueRun(context, run, o?.signal),
      save: (run, o) => saved.saveRun(context, run, o?.signal),
      leaseNext: (owner, leaseMs, o) => queue.leaseNextRun(context, owner, leaseMs, o?.signal),
      renewLeases: (leases, leaseMs, o) => queue.renewLeases(context, leases, leaseMs, o?.signal),
      expireLeases: (leases, o) => queue.expireLeases(context, leases, o?.signal),
      checkpoint: (runId, input, o) => ownedEvents.checkpointRun(context, runId, input, o?.signal),
      pause: (runId, pause, o) => outcome.pauseRun(context, runId, pause, o?.signal),
      finish: (runId, ending, o) => outcome.finishRun(context, runId, ending, o?.signal),
    };
    this.actions = {
      create: (action, o) => actions.createAction(context, action, o?.signal),
      get: (actionId, o) => actions.getAction(context, actionId, o?.signal),
      list: (runId, o) => actions.listActions(context, runId, o?.signal),
      transition: (actionId, transition, o) =>
        actions.transitionAction(context, actionId, transition, o?.signal),
    };
    this.approvals = {
      createBatch: (items, o) => approvals.createApprovals(context, items, o?.signal),
      get: (approvalId, userId, o) => approvals.getApproval(context, userId, approvalId, o?.signal),
      list: (userId, filter, o) =>
        approvals.listApprovals(context, userId, filter ?? {}, o?.signal),
      listPending: (userId, page, o) =>
        pendingApprovals.listPendingApprovals(context, userId, page, o?.signal),
      resolve: (approvalId, resolution, o) =>
        approvals.resolveApproval(context, approvalId, resolution, o?.signal),
    };
    this.grants = {
      add: (grant, o) => grants.addGrant(context, grant, o?.signal),
      list: (userId, o) => grants.listGrants(context, userId, o?.signal),
      has: (userId, scope, o) => grants.hasGrant(context, userId, scope, o?.signal),
      revoke: (grantId, userId, o) => grants.revokeGrant(context, userId, grantId, o?.signal),
      listAll: (filter, o) => grants.listAllGrants(context, filter, o?.signal),
      revokeAny: (grantId, o) => grants.revokeAnyGrant(context, grantId, o?.signal),
    };
    this.events = {
      append: (runId, list, o) => events.appendEvents(context, runId, list, o?.signal),
      writeOwned: (runId, owner, owned, o) =>
        ownedEvents.writeOwnedEvents(context, runId, owner, owned, o?.signal),
      read: (runId, range, o) => events.readEvents(context, runId, range ?? {}, o?.signal),
      ...(pool ? { subscribe: (listener, o) => this.listen(pool, listener, o?.signal) } : {}),
    };
    this.audit = {
      append: (entry, o) => audit.appendAudit(context, entry, o?.signal),
      list: (filter, o) => audit.listAudit(context, filter ?? {}, o?.signal),
      verify: (o) => audit.verifyAudit(context, o?.signal),
    };
  }

  newId = (): string => this.context.newId();

  /** PostgreSQL's LISTEN: a change made by any process reaches every subscriber. */
  private async listen(
    pool: Pool,
    listener: (change: RunChange) => void,
    signal?: AbortSignal,
  ): Promise<() => Promise<void>> {
    signal?.throwIfAborted();
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
  }

  close = async (): Promise<void> => {
    await Promise.all([...this.listeners].map((stop) => stop()));
    this.listeners.clear();
    await this.db.destroy();
  };
}
