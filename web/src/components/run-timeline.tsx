import { useEffect, useState } from 'react';
import type { Api } from '../api/api.js';
import type { TrajectoryApi } from '../api/trajectory-api.js';
import { buildExecutionTree } from '../state/event-tree.js';
import { runTree } from '../state/run-tree.js';
import { useRunTree } from '../state/use-run-tree.js';
import { useTicker } from '../state/use-ticker.js';
import { formatCost, formatDuration, formatTokens } from '../state/format.js';
import { threadPath, type Navigate } from '../state/use-route.js';
import { isSettled, statusLabel } from '../state/run-outcome.js';
import { useRecorded } from '../state/use-recorded.js';
import { useRunDetails } from '../state/use-run-details.js';
import { AuditView } from './audit-view.js';
import { ExecutionNodeView } from './execution-node-view.js';
import { RunTreeView } from './run-tree-view.js';
import { TrajectoryLink } from './trajectory-link.js';

interface Props {
  api: Api;
  recordings: TrajectoryApi;
  runId: string;
  navigate: Navigate;
}

/** One run: a summary, the event tree with subagents nested, and its audit entries. */
export function RunTimeline({ api, recordings, runId, navigate }: Props) {
  const details = useRunDetails(api, runId);
  const recorded = useRecorded(recordings, runId);
  // A run still going on: its tree is read again every few seconds until it ends.
  const pollable = details.run !== undefined && !isSettled(details.run.run);
  const [settledRun, setSettledRun] = useState<string>();
  const polling = pollable && settledRun !== runId;
  const live = useRunTree(api, pollable ? runId : undefined, useTicker(polling, 3000));
  useEffect(() => {
    if (live.settled) setSettledRun(runId);
  }, [live.settled, runId]);
  if (details.error)
    return (
      <div role="alert" className="notice notice-error">
        <span className="notice-text">{details.error}</span>
        <button type="button" onClick={details.reload}>
          Retry
        </button>
      </div>
    );
  if (!details.run) return <p role="status">Loading run…</p>;
  const { run, events } = details.run;
  const roots = buildExecutionTree(events);
  const tree = live.rows.length > 0 ? live.rows : runTree(events, run, details.run.approvals);
  const approvalHref = (id: string) => `${threadPath(run.threadId)}#approval-${id}`;
  const origin = events[0]?.event.timestamp ?? run.createdAt;
  const ended = run.finishedAt ?? run.updatedAt;
  return (
    <section className="timeline" aria-labelledby="run-title">
      <a
        href={threadPath(run.threadId)}
        onClick={(event) => {
          event.preventDefault();
          navigate(threadPath(run.threadId));
        }}
      >
        ← Back to the thread
      </a>
      <h1 id="run-title">Run timeline</h1>
      {recorded === 'yes' && <TrajectoryLink runId={run.id} navigate={navigate} />}
      {recorded === 'no' && (
        <p className="muted">
          Not recorded: tick &ldquo;Record runs&rdquo; before sending to keep a run you can step
          through and fork.
        </p>
      )}
      <dl className="run-summary">
        <dt>Status</dt>
        <dd>
          <span className={`badge badge-${statusLabel(run)}`}>{statusLabel(run)}</span>
        </dd>
        <dt>Agent</dt>
        <dd>{run.agent}</dd>
        <dt>Model</dt>
        <dd>{run.model || '–'}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(Date.parse(ended) - Date.parse(run.createdAt))}</dd>
        <dt>Tokens</dt>
        <dd>
          {formatTokens(run.usage.totalTokens)} ({run.usage.inputTokens} in,{' '}
          {run.usage.outputTokens} out, {run.usage.thoughtTokens} thinking)
        </dd>
        {run.usage.costUsd !== undefined && (
          <>
            <dt>Cost</dt>
            <dd title="Estimated from model list prices">{formatCost(run.usage.costUsd)}</dd>
          </>
        )}
        <dt>Summary</dt>
        <dd>{run.summary || '–'}</dd>
      </dl>
      {tree.length > 0 && (
        <>
          <h2>Agent tree</h2>
          <RunTreeView
            rows={tree}
            approvalHref={approvalHref}
            onApprovalLink={(id, event) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              navigate(approvalHref(id));
            }}
          />
        </>
      )}
      <h2>Events</h2>
      {roots.length === 0 ? (
        <p className="muted">No events recorded.</p>
      ) : (
        <ol className="tree" aria-label="Executions">
          {roots.map((node) => (
            <ExecutionNodeView key={node.executionId} node={node} origin={origin} />
          ))}
        </ol>
      )}
      <AuditView
        entries={details.audit ?? []}
        {...(details.verification ? { verification: details.verification } : {})}
      />
    </section>
  );
}
