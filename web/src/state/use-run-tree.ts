import { useEffect, useState } from 'react';
import type { Api } from '../api/api.js';
import type { RunView } from '../api/wire-types.js';
import { isSettled } from './run-outcome.js';
import { runTree, type TreeRow } from './run-tree.js';

export interface LiveTree {
  rows: TreeRow[];
  /** The run had ended when it was last read: nothing more will change. */
  settled: boolean;
}

/** A live run's tree: read again (after a short pause) whenever `tick` says the run moved on. */
export function useRunTree(api: Api, runId: string | undefined, tick: string): LiveTree {
  const [loaded, setLoaded] = useState<{ runId: string } & LiveTree>();
  useEffect(() => {
    if (!runId) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.getRun(runId, controller.signal).then(
        (view: RunView) =>
          setLoaded({
            runId,
            rows: runTree(view.events, view.run, view.approvals),
            settled: isSettled(view.run),
          }),
        // The tree is an aid: the thread shows the run's failure itself.
        () => undefined,
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, runId, tick]);
  return runId && loaded?.runId === runId ? loaded : { rows: [], settled: false };
}
