import { useCallback, useEffect, useState } from 'react';
import type { TrajectoryApi, TrajectoryView } from '../api/trajectory-api.js';

export type TrajectoryState =
  | { kind: 'loading' }
  | { kind: 'loaded'; trajectory: TrajectoryView }
  | { kind: 'failed'; message: string };

/** One run's recording, loaded when the run changes; `reload` asks again. */
export function useTrajectory(
  api: TrajectoryApi,
  runId: string,
): { state: TrajectoryState; reload(): void } {
  const [state, setState] = useState<TrajectoryState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    api.trajectory(runId, controller.signal).then(
      (trajectory) => setState({ kind: 'loaded', trajectory }),
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState({
            kind: 'failed',
            message: error instanceof Error ? error.message : 'The recording could not be loaded.',
          });
      },
    );
    return () => controller.abort();
  }, [api, runId, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, reload };
}
