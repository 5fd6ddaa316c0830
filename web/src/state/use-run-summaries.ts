import { useEffect, useRef, useState } from 'react';
import type { Api } from '../api/api.js';
import type { ThreadRunView, ThreadView } from '../api/wire-types.js';
import { isSettled, type RunSummary } from './run-outcome.js';

/** The newest runs of a thread read one by one when the thread view does not carry them. */
const MOST_RUNS = 20;

/** A thread view's own summary of a run, from servers that send one with its steps. */
function given(run: ThreadRunView | undefined): RunSummary | undefined {
  const r = run as (ThreadRunView & Partial<Record<keyof RunSummary, unknown>>) | undefined;
  if (typeof r?.agent !== 'string' || typeof r.status !== 'string') return undefined;
  return {
    agent: r.agent,
    status: r.status,
    model: typeof r.model === 'string' ? r.model : '',
    summary: typeof r.summary === 'string' ? r.summary : '',
    ...(typeof r.errorCode === 'string' ? { errorCode: r.errorCode } : {}),
  };
}

/**
 * Each run of the thread shown: its agent, model and how it ended, so
 * replies are named after their agent and failures are not read as answers.
 * Settled runs are read once; runs still going are read again with the thread.
 */
export function useRunSummaries(
  api: Api,
  view: ThreadView | undefined,
): Record<string, RunSummary> {
  const [summaries, setSummaries] = useState<Record<string, RunSummary>>({});
  const known = useRef<Record<string, RunSummary>>({});
  useEffect(() => {
    if (!view) return;
    const ids = [...new Set(view.messages.flatMap((m) => (m.runId ? [m.runId] : [])))].slice(
      -MOST_RUNS,
    );
    const controller = new AbortController();
    const read = async (id: string): Promise<[string, RunSummary] | undefined> => {
      const stated = given(view.runs?.find((r) => r.runId === id));
      if (stated) return [id, stated];
      const old = known.current[id];
      if (old && isSettled(old)) return [id, old];
      try {
        const { run } = await api.getRun(id, controller.signal);
        const { agent, model, summary, status, errorCode } = run;
        return [id, { agent, model, summary, status, ...(errorCode ? { errorCode } : {}) }];
      } catch {
        // Unread, the reply is shown as it is; the next load of the thread tries again.
        return old ? [id, old] : undefined;
      }
    };
    void Promise.all(ids.map(read)).then((pairs) => {
      if (controller.signal.aborted) return;
      const found = Object.fromEntries(pairs.filter((p) => p !== undefined));
      known.current = { ...known.current, ...found };
      setSummaries(found);
    });
    return () => controller.abort();
  }, [api, view]);
  return summaries;
}
