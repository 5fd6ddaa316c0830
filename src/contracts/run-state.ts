import type {
  FunctionCallPart,
  FunctionResponsePart,
  Message,
  ModelChunk,
  Usage,
} from '../model/types.js';
import type { AgentInput } from './agent.js';
import type {
  RecoverableReason,
  RunResult,
  SubagentCost,
  TerminateReason,
  ToolTrace,
} from './run-result.js';

/**
 * Everything the loop knows about a run, as plain data: no closures, no
 * sockets. It can be serialised, persisted and resumed as it is.
 */
export interface RunState {
  version: 1;
  runId: string;
  agent: string;
  model: string;
  systemInstruction?: string;
  messages: Message[];
  /** Model turns taken, grace turn included. */
  turns: number;
  /** Milliseconds of running time used (waits for approval excluded). */
  activeMs: number;
  startedAt: string;
  emittedVars: Record<string, unknown>;
  /** Set when complete_task was accepted. */
  completed?: { output: unknown };
  traces: ToolTrace[];
  usage: Usage;
  /** Input tokens the provider reported for the last model call: how full the context is. */
  contextTokens?: number;
  /**
   * Dollars this execution and every agent below it have spent (settled
   * model calls), as its cost budget counts them: a resumed run's tree starts
   * from here, in whatever process takes it up. Absent in states stored
   * before it was kept: read as the run's cost and its paused subagents'.
   */
  costSpentUsd?: number;
  /** What finished subagents cost; kept in the state so a paused run's total survives resume. */
  subagentCosts?: SubagentCost[];
  /** Tools a person approved for the rest of this run ("always"). */
  alwaysApproved: string[];
  /** The missing-outputs nudge is sent once. */
  nudged: boolean;
  recoveredFrom?: RecoverableReason;
  /** A turn paused for approvals: every call, with the responses known so far (null = awaiting a decision). */
  pendingTurn?: {
    calls: FunctionCallPart[];
    responses: Array<FunctionResponsePart | null>;
    /**
     * Subagents paused inside this turn's calls, by the parent's call id: the
     * call is answered when its child, resumed where it stopped, finishes.
     * Absent in states stored before subagents could wait.
     */
    children?: Record<string, PausedChild>;
    /**
     * What each waiting call was when the person was asked, by call id: a
     * resume checks an approval against it. Absent in states stored before
     * approvals were bound: their approvals are asked again.
     */
    bindings?: Record<string, ApprovalBinding>;
  };
  /** A router or workflow paused for approval: what it did so far, replayed when it resumes. */
  code?: CodeMemo;
  status: 'running' | 'paused' | 'finished';
  terminateReason?: TerminateReason;
  finalText?: string;
  error?: { code: string; message: string };
}

/** A call somewhere in a run tree that waits for a person. */
export interface AwaitedCall {
  /** Unique in the run tree: a subagent's call id is prefixed with its scope (see `scopedCallId`). */
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  preview: string;
  /** The agents from the root to the one that asked, then the tool: `assistant › mailer › gmail_send`. */
  path?: string[];
  /** What the person is asked to approve; give it back with the decision (`{ kind: 'approve', binding }`). */
  binding?: ApprovalBinding;
}

/**
 * What an approval is bound to: the tool, its arguments (`inputHash`, the
 * SHA-256 of their canonical JSON), the definition's content hash and the
 * tool's side-effect class. An approval carries over to a resume only while
 * all four are unchanged; otherwise the person is asked again.
 */
export interface ApprovalBinding {
  tool: string;
  inputHash: string;
  definitionHash: string;
  /** `effect:require`, `effect:auto`, `effect` (no default) or `none`: see `toolClassOf`. */
  toolClass: string;
}

/** A subagent paused for approval, kept inside its parent's paused turn. */
export interface PausedChild {
  /** Kept so the resumed child is the same execution: its scoped call ids stay the same. */
  executionId: string;
  /** The prefix of this child's call ids in the tree (`mailer@1a2b3c4d`). */
  scope: string;
  agent: string;
  state: RunState;
  /** Its waiting calls (nested children's included), ids scoped to the tree. */
  pending: AwaitedCall[];
}

/** What a code agent (router, workflow) did before it paused, by call order and by child. */
export interface CodeMemo {
  /** The agent's input, so the replay asks the same (a resume gets no prompt of its own). */
  input: AgentInput;
  /** Each model call's reply, in the order the agent made them (null: it failed, ask again). */
  models: Array<ModelChunk[] | null>;
  /** Each child by agent, inputs and occurrence: its result, or where it is waiting. */
  spawns: Record<string, { result: RunResult } | { child: PausedChild }>;
  /**
   * How many events the agent itself emitted before it paused. The replay
   * emits them again in the same order, so a resume keeps that many quiet
   * and the run's log holds each once. Absent in states stored before it was
   * counted: those resume telling everything again.
   */
  events?: number;
}
