import type { Api } from '../api/api.js';
import { useRunTree } from '../state/use-run-tree.js';
import { RunTreeView } from './run-tree-view.js';

interface Props {
  api: Api;
  runId: string;
  /** Changes whenever the run moves on (a step, a status, an approval). */
  tick: string;
}

/** In a thread, the agent tree of the run going on, once it has subagents. */
export function RunTreePanel({ api, runId, tick }: Props) {
  const { rows } = useRunTree(api, runId, tick);
  if (!rows.some((row) => row.children.length > 0)) return null;
  return (
    <section className="card run-tree-panel" aria-label="Agent tree of the run">
      <h2 className="run-tree-title">Agent tree</h2>
      <RunTreeView rows={rows} approvalHref={(id) => `#approval-${id}`} />
    </section>
  );
}
