import type { MouseEvent } from 'react';
import { formatCost } from '../state/format.js';
import { STATE_TEXT, type TreeRow } from '../state/run-tree.js';

interface Props {
  rows: TreeRow[];
  /** Where a node's pending approval is decided (its card in the thread). */
  approvalHref(approvalId: string): string;
  onApprovalLink?(approvalId: string, event: MouseEvent<HTMLAnchorElement>): void;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The run's agents as a tree: who runs, who waits for a person, how each ended. */
export function RunTreeView({ rows, approvalHref, onApprovalLink }: Props) {
  return (
    <ul className="run-tree" aria-label="Agent tree">
      {rows.map((row) => (
        <RunTreeNode
          key={row.node.executionId}
          row={row}
          approvalHref={approvalHref}
          {...(onApprovalLink ? { onApprovalLink } : {})}
        />
      ))}
    </ul>
  );
}

function RunTreeNode({
  row,
  approvalHref,
  onApprovalLink,
}: Omit<Props, 'rows'> & { row: TreeRow }) {
  const { node, state } = row;
  // Its own calls' cost: a subagent's shows on its own line.
  const cost = node.usage.costUsd;
  const line = (
    <span className="run-node-line">
      <strong className="run-node-agent">{node.agent}</strong>
      <span className={`badge badge-node-${state}`}>{STATE_TEXT[state]}</span>
      <span className="muted run-node-figures">
        {plural(row.turns, 'turn')} · {plural(row.toolCalls, 'tool call')}
        {cost === undefined ? '' : ` · ${formatCost(cost)}`}
      </span>
      {row.approvalIds.map((id) => (
        <a
          key={id}
          className="run-node-approval"
          href={approvalHref(id)}
          onClick={(event) => onApprovalLink?.(id, event)}
        >
          Decide the approval
        </a>
      ))}
    </span>
  );
  return (
    <li
      className={`run-node run-node-${state}`}
      data-agent={node.agent}
      data-state={state}
      aria-label={`${node.agent}: ${STATE_TEXT[state]}`}
    >
      {row.children.length === 0 ? (
        <div className="run-node-leaf">{line}</div>
      ) : (
        <details open>
          <summary>{line}</summary>
          <RunTreeView
            rows={row.children}
            approvalHref={approvalHref}
            {...(onApprovalLink ? { onApprovalLink } : {})}
          />
        </details>
      )}
    </li>
  );
}
