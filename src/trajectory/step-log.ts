import type { CadreEvent } from '../events/types.js';
import { canonicalJson } from '../util/canonical-json.js';
import { jsonClone } from './canonical-json.js';
import type { ApprovalStep, ModelStep, ToolStep } from './types.js';

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
