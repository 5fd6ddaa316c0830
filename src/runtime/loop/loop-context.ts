import type { EventSink } from '../../events/types.js';
import type { GenerationConfig, Message, ModelClient, ToolDeclaration } from '../../model/types.js';
import type { ModelPrice, PriceTable } from '../../cost/prices.js';
import type { CostBudget } from '../../cost/cost-budget.js';
import type { AgentDefinition } from '../../definition/types.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { ToolContext } from '../../tools/types.js';
import type { CompletionProtocol } from '../completion/completion.js';
import type { ToolInterceptor } from '../../policy/interceptors.js';
import type { GatePolicy } from '../../policy/tool-gate.js';
import type { CallEnvironment } from '../calls/call-environment.js';
import type { RunJournal } from '../../contracts/run-journal.js';
import type { ConfirmationHandler } from '../../contracts/confirmation.js';
import type { Deadline } from './deadline.js';
import type { RunState } from '../../contracts/run-state.js';
import type { SchemaValidator } from '../completion/schema-validator.js';
import type { CompactionSettings } from '../compaction/compaction-settings.js';
import type { MeasuredRequest, MeasuringContext } from '../compaction/measure-request.js';
import type { SpawnRequest } from '../../contracts/agent.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { ChildResume } from '../subagents/child-pause.js';

/** Everything one execution's turns share. Lives for the run; `state` is the only part persisted. */
export interface LoopContext {
  definition: AgentDefinition;
  state: RunState;
  protocol: CompletionProtocol;
  registry: ToolRegistry;
  /** All declarations offered on a normal turn (granted tools + completion tools); shared by runs, never changed. */
  declarations: readonly ToolDeclaration[];
  /** The names in `declarations`, shared like them. */
  offered: ReadonlySet<string>;
  client: ModelClient;
  generation: GenerationConfig;
  validator: SchemaValidator;
  confirm: ConfirmationHandler;
  emit: EventSink;
  deadline: Deadline;
  /**
   * The caller's signal alone (the deadline is separate so TIMEOUT and ABORTED
   * stay distinct); none when the caller gave none (read it with turnSignal and
   * callerAborted): a run nobody can cancel holds no signal for it.
   */
  callerSignal?: AbortSignal;
  /** False when the caller gave no signal: nothing but the deadline can stop the run. */
  cancellable: boolean;
  toolContext: Omit<ToolContext, 'signal'>;
  maxTurns: number;
  /** `runConfig.max_cost_usd`: this execution's own cap (subagents included), nested in its tree's. */
  maxCostUsd?: number;
  /**
   * This execution's cost budget, under its parent's: every model call
   * reserves its worst case here first, and does not start if it would not fit.
   */
  budget: CostBudget;
  /** Prices the model calls of this execution. */
  prices: PriceTable;
  /**
   * Where the run is kept: its state (root executions; a child's is kept in
   * its root's) and the run-once claim of every side effect.
   */
  journal: RunJournal;
  interceptors?: readonly ToolInterceptor[];
  policy?: GatePolicy;
  /** When earlier turns are summarised (runConfig.compaction); absent: never. */
  compaction?: CompactionSettings;
  /** The last call's estimated and reported input: the next request is measured from it. */
  measured?: MeasuredRequest;
  /**
   * A smaller window than the model table's: the one the client told at the
   * start (a local model's), or learned from a provider's "too long" answer.
   */
  learnedWindow?: number;
  /** Each message's estimated tokens, kept so a turn's measure costs only its new messages. */
  messageTokens?: WeakMap<Message, number>;
  /** The system prompt's and tool declarations' estimate (measure-request.ts). */
  fixedTokens?: MeasuringContext['fixedTokens'];
  /** The conversation's estimate so far, grown by each turn's new messages (measure-request.ts). */
  conversationTokens?: MeasuringContext['conversationTokens'];
  /** The model's price, looked up once per model (take-turn.ts). */
  price?: { model: string; price: ModelPrice | undefined };
  /** Every call id of the run so far, grown by each turn's calls (call-ids.ts). */
  callIds?: Set<string>;
  /** The latest turn's call environment, reused by the next turn when nothing it holds changed. */
  callEnvironment?: CallEnvironment;
  /** The definition's content hash, once an approval needed it (approvals are bound to it). */
  definitionHash?: Promise<string>;
  /** Continues a subagent that paused inside one of this execution's calls. */
  resumeSpawn?: (request: SpawnRequest, resume: ChildResume) => Promise<RunResult>;
}
