import type { CadreEvent } from '../events/types.js';
import { canonicalJson } from '../util/canonical-json.js';
import { jsonClone } from '../util/json-hash.js';
import type { ApprovalStep, ModelStep, ToolStep } from './types.js';

/** A recording's log as JSON, kept while its run waits for approval. */
export interface StepLogSnapshot {
  model_steps: ModelStep[];
  tool_steps: ToolStep[];
  approvals: ApprovalStep[];
  events: CadreEvent[];
  resolved: Record<string, string>;
  providers: string[];
}

/**
 * What the recording decorators (model, tools, confirm, onEvent) write to
 * during one run. One per recording: nothing is shared between runs.
 */
export class StepLog {
  readonly modelSteps: ModelStep[] = [];
  readonly toolSteps: ToolStep[] = [];
  readonly approvals: ApprovalStep[] = [];
  readonly events: CadreEvent[] = [];
  /** Requested model string → resolved id, as the resolver answered. */
  readonly resolved: Record<string, string> = {};
  readonly providers = new Set<string>();
  /** tool_call events not yet paired with an execution, oldest first. */
  private readonly unclaimedCalls: CadreEvent[] = [];

  snapshot(): StepLogSnapshot {
    return jsonClone({
      model_steps: this.modelSteps,
      tool_steps: this.toolSteps,
      approvals: this.approvals,
      events: this.events,
      resolved: this.resolved,
      providers: [...this.providers],
    });
  }

  /** Goes on from `snapshot`: its steps first, calls it saw announced but not run still claimable. */
  static restore(snapshot: StepLogSnapshot): StepLog {
    const log = new StepLog();
    log.modelSteps.push(...snapshot.model_steps);
    log.toolSteps.push(...snapshot.tool_steps);
    log.approvals.push(...snapshot.approvals);
    Object.assign(log.resolved, snapshot.resolved);
    for (const provider of snapshot.providers) log.providers.add(provider);
    const ran = new Set(
      snapshot.tool_steps.flatMap((step) => (step.call_id ? [step.call_id] : [])),
    );
    for (const event of snapshot.events) {
      log.events.push(event);
      if (event.type === 'tool_call' && !ran.has(String(event.data.callId)))
        log.unclaimedCalls.push(event);
    }
    return log;
  }

  addEvent(event: CadreEvent): void {
    const copy = jsonClone(event);
    this.events.push(copy);
    if (copy.type === 'tool_call') this.unclaimedCalls.push(copy);
  }

  /**
   * The call id of a tool execution that is starting. The runtime emits
   * `tool_call` right before it executes, so the oldest unclaimed event of
   * the same execution, tool and arguments is this call.
   */
  claimCallId(executionId: string, tool: string, args: unknown): string | undefined {
    const wanted = canonicalJson(args);
    const index = this.unclaimedCalls.findIndex(
      (e) =>
        e.executionId === executionId &&
        e.data.tool === tool &&
        canonicalJson(e.data.args) === wanted,
    );
    if (index < 0) return undefined;
    const [event] = this.unclaimedCalls.splice(index, 1);
    const id = event?.data.callId;
    return typeof id === 'string' ? id : undefined;
  }
}
