import type { Action, ActionStatus } from '../records.js';
import type { CallOptions } from './call-options.js';
import type { Transition } from './transition.js';

export interface NewAction {
  runId: string;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  inputHash: string;
  status: ActionStatus;
  requiresApproval: boolean;
}

export interface ActionTransition {
  /** The status the caller believes the action is in; anything else makes the transition fail. */
  from: ActionStatus | readonly ActionStatus[];
  to: ActionStatus;
  /**
   * The lease owner the caller acts as: the move happens only while that owner
   * still holds the action's run. A process that stalled past its lease and lost
   * the run to another can then never start an effect the new owner also sees.
   */
  heldBy?: string;
  output?: unknown;
  errorCode?: string;
  errorMessage?: string;
}

/** A run's tool calls (effects), each moved through its statuses by compare-and-set. */
export interface ActionStore {
  /** Idempotent per (runId, callId): a second create returns the action already stored. */
  create(action: NewAction, options?: CallOptions): Promise<Action>;
  get(actionId: string, options?: CallOptions): Promise<Action | undefined>;
  /** The run's actions in creation order. */
  list(runId: string, options?: CallOptions): Promise<Action[]>;
  /** Compare-and-set on the current status: of two racing callers exactly one wins. */
  transition(
    actionId: string,
    transition: ActionTransition,
    options?: CallOptions,
  ): Promise<Transition<Action, ActionStatus>>;
}
