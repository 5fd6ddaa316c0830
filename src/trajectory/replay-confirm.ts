import type { ConfirmationHandler } from '../contracts/confirmation.js';
import type { ReplayLog } from './replay-log.js';
import type { Trajectory } from './types.js';

/**
 * Plays back the recorded approval decisions (call ids are replayed as
 * recorded, so they match), so the replayed events and messages are the
 * same. After a fork the live handler decides. A call with no recorded
 * decision is approved: during replay no side effect really runs.
 */
export function replayConfirm(
  trajectory: Trajectory,
  log: ReplayLog,
  live?: ConfirmationHandler,
): ConfirmationHandler {
  const recorded = new Map(
    trajectory.approvals.map((a) => [`${a.call_id}\u0000${a.tool}`, a.decision]),
  );
  return async (request, signal) => {
    signal.throwIfAborted();
    if (log.forkedAt !== undefined && live) return live(request, signal);
    const decision = recorded.get(`${request.callId}\u0000${request.tool}`);
    if (decision) return decision;
    log.notes.push(
      `No recorded decision for ${request.tool} (${request.callId}); approved, as nothing runs during replay.`,
    );
    return { kind: 'approve' };
  };
}
