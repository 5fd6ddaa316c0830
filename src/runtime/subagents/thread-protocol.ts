import type { CadreEvent, ExecutionContext } from '../../events/types.js';
import type { Message } from '../../model/types.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { GatedCall } from '../../policy/tool-gate.js';
import type { PolicyDecision } from '../../policy/types.js';
import type { ConfirmationDecision, ConfirmationRequest } from '../../contracts/confirmation.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { AwaitedCall, RunState } from '../../contracts/run-state.js';

/** Everything a worker thread needs to run one child: plain, structured-cloneable data. */
export interface ThreadJob {
  definition: AgentDefinition;
  inputs: Record<string, unknown>;
  history?: Message[];
  model: string;
  env: Record<string, string | undefined>;
  cwd: string;
  workspace: string;
  protectedPaths?: readonly string[];
  timeBudgetMs: number;
  /**
   * What the tree's budget had left when the thread started (absent: no cap).
   * A thread cannot hold the parent's budget object: it gets this as its own
   * cap, and the parent counts what it spent when it ends.
   */
  costLimitUsd?: number;
  runId: string;
  execution: ExecutionContext;
}

export type ToWorker =
  | { kind: 'start'; job: ThreadJob }
  | { kind: 'abort' }
  | { kind: 'confirmed'; id: number; decision: ConfirmationDecision }
  | { kind: 'gated'; id: number; decision: PolicyDecision };

export type FromWorker =
  | { kind: 'event'; event: CadreEvent }
  | { kind: 'confirm'; id: number; request: ConfirmationRequest }
  /** The parent's gate decides every call of the thread's child. */
  | { kind: 'gate'; id: number; call: GatedCall; approvedForRun: string[] }
  | { kind: 'result'; result: RunResult }
  /** The child waits for a person: its state goes back, and it resumes in the parent's process. */
  | { kind: 'paused'; state: RunState; pending: AwaitedCall[] }
  | { kind: 'error'; message: string };
