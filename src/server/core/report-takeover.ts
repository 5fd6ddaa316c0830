import type { CadreEvent } from '../../events/types.js';
import type { LeasedRun } from '../../store/types.js';
import { auditCutOff } from './audit-log.js';
import type { RunWriter } from './run-writer.js';
import type { ServerContext } from './server-context.js';

/**
 * A run leased after its owner's lease ran out (the process died or hung):
 * its log says another process took it over, and the audit trail records
 * each effect the dead owner cut off, outcome unknown (the store marked them
 * `interrupted`; they are never run again). The step then goes on from the
 * run's last checkpoint.
 */
export async function reportTakeover(
  ctx: ServerContext,
  writer: RunWriter,
  leased: LeasedRun,
): Promise<void> {
  const { run } = leased;
  writer.event(takeoverEvent(leased));
  for (const action of leased.interrupted) {
    await auditCutOff(ctx.store, run, action, {
      errorCode: 'interrupted',
      approvalReason: 'approved by a person',
    });
  }
}

function takeoverEvent({ run, interrupted }: LeasedRun): CadreEvent {
  const unknown = interrupted.map((a) => ({
    actionId: a.id,
    tool: a.tool,
    callId: a.callId,
  }));
  return {
    type: 'run_taken_over',
    message:
      unknown.length > 0
        ? `Another process took this run over; ${unknown.map((u) => u.tool).join(', ')} may or may not have happened`
        : 'Another process took this run over',
    timestamp: new Date().toISOString(),
    data: { interrupted: unknown },
    runId: run.id,
    executionId: run.id,
    depth: 0,
    path: [run.agent],
    seq: 0,
  };
}
