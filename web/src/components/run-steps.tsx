import type { RunTrace } from '../state/run-trace.js';
import { ThoughtBlock } from './thought-block.js';
import { ToolStepItem } from './tool-step-item.js';

/** A run's thoughts and tool calls, shown above its text. */
export function RunSteps({ trace }: { trace: RunTrace }) {
  if (!trace.thoughts && trace.steps.length === 0) return null;
  return (
    <div className="run-steps">
      {trace.thoughts && <ThoughtBlock text={trace.thoughts} />}
      {trace.steps.length > 0 && (
        <ol className="steps" aria-label="Tool calls">
          {trace.steps.map((step) => (
            <ToolStepItem key={step.key} step={step} />
          ))}
        </ol>
      )}
    </div>
  );
}
