import { useEffect, useState } from 'react';
import type { TrajectoryApi } from '../api/trajectory-api.js';

/** Whether a run kept a trajectory: `unknown` until the server has answered. */
export type Recorded = 'unknown' | 'yes' | 'no';

/** Asks for the run's recording, so a link to it is offered only when there is one. */
export function useRecorded(api: TrajectoryApi, runId: string): Recorded {
  const [state, setState] = useState<{ runId: string; recorded: Recorded }>();
  useEffect(() => {
    const controller = new AbortController();
    api.trajectory(runId, controller.signal).then(
      () => setState({ runId, recorded: 'yes' }),
      () => {
        if (!controller.signal.aborted) setState({ runId, recorded: 'no' });
      },
    );
    return () => controller.abort();
  }, [api, runId]);
  return state?.runId === runId ? state.recorded : 'unknown';
}
