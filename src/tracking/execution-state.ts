import type { CadreEvent } from '../events/types.js';
import type { RunResult, TerminateReason } from '../contracts/run-result.js';
import { DefaultTracker } from './default-tracker.js';
import { resultOf } from './final-result.js';
import {
  DEFAULT_PHASE_TABLES,
  LOOP_PHASES,
  nextPhase,
  PHASES,
  type Phase,
  type PhaseTable,
} from './phases.js';
import type { ExecutionTracker } from './types.js';

/** `pending`: announced by its parent's subagent_started, no event of its own yet. */
export type ExecutionStatus = 'pending' | 'running' | 'finished';

export interface ExecutionRecord {
  executionId: string;
  parentId?: string;
  /** The agent's name: the last element of its path. */
  agent: string;
  path: readonly string[];
  depth: number;
  phase: Phase;
  status: ExecutionStatus;
  terminateReason?: TerminateReason;
  /** ISO timestamps of its first event and of its final_result. */
  startedAt?: string;
  finishedAt?: string;
  lastMessage?: string;
}

export interface ExecutionStateOptions {
  /** Phase tables by agent name (default: deep_research and react). */
  tables?: Readonly<Record<string, PhaseTable>>;
  /** For agents with no table of their own (default: the executor's loop). */
  fallback?: PhaseTable;
}

/**
 * Per-execution state of a whole run tree, keyed by executionId: where each
 * execution is (phase), whether it is running, and how it ended. Also a
 * tracker for the root, so a display can use it alone.
 */
export class ExecutionState implements ExecutionTracker {
  private readonly records = new Map<string, ExecutionRecord>();
  private readonly tracker = new DefaultTracker();
  private rootId: string | undefined;

  constructor(private readonly options: ExecutionStateOptions = {}) {}

  handleEvent(event: CadreEvent): void {
    this.tracker.handleEvent(event);
    const record = this.recordFor(event);
    if (record.status === 'pending') {
      record.status = 'running';
      record.startedAt = event.timestamp;
    }
    if (event.message) record.lastMessage = event.message;
    record.phase = nextPhase(this.tableFor(record.agent), event.type, record.phase);
    if (event.type === 'subagent_started') this.announceChild(event, record);
    if (event.type === 'final_result' && record.status !== 'finished') {
      record.status = 'finished';
      record.finishedAt = event.timestamp;
      const reason = resultOf(event)?.terminate_reason;
      if (reason) record.terminateReason = reason;
    }
  }

  get(executionId: string): ExecutionRecord | undefined {
    const record = this.records.get(executionId);
    return record && { ...record };
  }

  root(): ExecutionRecord | undefined {
    return this.rootId === undefined ? undefined : this.get(this.rootId);
  }

  /** Every execution seen, in the order they appeared. */
  executions(): ExecutionRecord[] {
    return [...this.records.values()].map((record) => ({ ...record }));
  }

  children(executionId: string): ExecutionRecord[] {
    return this.executions().filter((record) => record.parentId === executionId);
  }

  statusMessage(): string | undefined {
    return this.tracker.statusMessage();
  }

  isComplete(): boolean {
    return this.tracker.isComplete();
  }

  finalResult(): RunResult | undefined {
    return this.tracker.finalResult();
  }

  private recordFor(event: CadreEvent): ExecutionRecord {
    const known = this.records.get(event.executionId);
    if (known) return known;
    if (event.depth === 0 && this.rootId === undefined) this.rootId = event.executionId;
    return this.add({
      executionId: event.executionId,
      ...(event.parentExecutionId ? { parentId: event.parentExecutionId } : {}),
      agent: event.path.at(-1) ?? '?',
      path: event.path,
      depth: event.depth,
      phase: PHASES.NOT_STARTED,
      status: 'pending',
    });
  }

  /** A child exists from the moment its parent starts it, even while it waits for a slot. */
  private announceChild(event: CadreEvent, parent: ExecutionRecord): void {
    const { executionId, agent } = event.data;
    if (typeof executionId !== 'string' || typeof agent !== 'string') return;
    if (this.records.has(executionId)) return;
    this.add({
      executionId,
      parentId: parent.executionId,
      agent,
      path: [...parent.path, agent],
      depth: parent.depth + 1,
      phase: PHASES.NOT_STARTED,
      status: 'pending',
    });
  }

  private add(record: ExecutionRecord): ExecutionRecord {
    this.records.set(record.executionId, record);
    return record;
  }

  private tableFor(agent: string): PhaseTable {
    const tables = this.options.tables ?? DEFAULT_PHASE_TABLES;
    return tables[agent] ?? this.options.fallback ?? LOOP_PHASES;
  }
}
