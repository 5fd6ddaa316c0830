import type { CadreEvent } from '../events/types.js';
import type { RunResult } from '../contracts/run-result.js';
import { isRootFinalResult, resultOf } from './final-result.js';
import type { ExecutionTracker } from './types.js';

/**
 * Status = the latest event's message, whichever execution sent it; the run
 * is complete at the root's final_result. Enough for a spinner over any agent.
 */
export class DefaultTracker implements ExecutionTracker {
  private status: string | undefined;
  private complete = false;
  private result: RunResult | undefined;

  handleEvent(event: CadreEvent): void {
    if (event.message) this.status = event.message;
    // A child's final_result is just progress; only the root's ends the run, and the first one counts.
    if (isRootFinalResult(event) && !this.complete) {
      this.complete = true;
      this.result = resultOf(event);
    }
  }

  statusMessage(): string | undefined {
    return this.status;
  }

  isComplete(): boolean {
    return this.complete;
  }

  finalResult(): RunResult | undefined {
    return this.result;
  }
}
