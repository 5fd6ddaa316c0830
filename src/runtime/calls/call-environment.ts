import type { EventSink } from '../../events/types.js';
import type { FunctionCallPart, FunctionResponsePart } from '../../model/types.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { ToolContext } from '../../tools/types.js';
import type { ToolInterceptor } from '../../policy/interceptors.js';
import type { GatePolicy } from '../../policy/tool-gate.js';
import type { CompletionProtocol } from '../completion/completion.js';
import type { ConfirmationHandler } from '../../contracts/confirmation.js';
import type { ApprovalBinding, RunState, PausedChild } from '../../contracts/run-state.js';
import type { SchemaValidator } from '../completion/schema-validator.js';
import type {
  ClaimOptions,
  ClaimResult,
  RunJournal,
  SideEffectOutcome,
} from '../../contracts/run-journal.js';

/** What the calls of one turn need from the run. */
export interface CallEnvironment {
  state: RunState;
  registry: ToolRegistry;
  /** Names the model was offered this turn (only completion tools on the grace turn). */
  offered: ReadonlySet<string>;
  protocol: CompletionProtocol;
  validator: SchemaValidator;
  confirm: ConfirmationHandler;
  /** Pauses the time budget while a person decides. */
  waitingForPerson(waiting: boolean): void;
  toolContext: ToolContext;
  emit: EventSink;
  onReject: 'continue' | 'fail';
  /** Claims a side-effecting call just before it runs, and records how it ended (exactly once, even across processes). */
  journal?: Pick<RunJournal, 'claim' | 'settle'>;
  /** An earlier call of this turn is waiting for a person: side effects may only join that wait. */
  afterPause?: boolean;
  /** Checks around every tool call (policy hooks, logging). */
  interceptors?: readonly ToolInterceptor[];
  /** Rules, trust, kill switch and grants the gate applies (default: side effects ask a person). */
  policy?: GatePolicy;
  /** Tools the definition narrowed to patterns (`shell` → `git status:*`). */
  patterns?: Readonly<Record<string, readonly string[]>>;
  /** The content hash of the running definition (computed once, when an approval first needs it). */
  definitionHash(): Promise<string>;
}

export type { ClaimOptions, ClaimResult, SideEffectOutcome };

export type CallOutcome =
  | {
      kind: 'answered';
      response: FunctionResponsePart;
      /** Set when the run must end as failed (onReject: fail). */
      failRun?: { code: string; message: string };
    }
  /** A person decides later: the run pauses with this call unanswered (or its subagent waiting). */
  | { kind: 'waiting'; call: FunctionCallPart; child?: PausedChild; binding?: ApprovalBinding };

export const answered = (
  response: FunctionResponsePart,
  failRun?: { code: string; message: string },
): CallOutcome =>
  failRun ? { kind: 'answered', response, failRun } : { kind: 'answered', response };
