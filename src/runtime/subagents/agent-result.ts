import type { RunResult } from '../../contracts/run-result.js';

/** What the parent model sees from a child: structured JSON, not prose (task tool seed). */
export function childReport(result: RunResult): Record<string, unknown> {
  const hasEmitted = Object.keys(result.emitted_vars).length > 0;
  return {
    agent_id: result.execution_id,
    terminate_reason: result.terminate_reason,
    ...(result.recovered_from ? { recovered_from: result.recovered_from } : {}),
    ...(hasEmitted ? { emitted_vars: result.emitted_vars } : { output: result.output }),
    final_message: result.final_message,
  };
}
