import { timelineRows, treeUsage, type ExecutionNode } from '../state/event-tree.js';
import { formatCost, formatDuration, formatTokens } from '../state/format.js';

interface Props {
  node: ExecutionNode;
  /** The run's first timestamp: rows show their offset from it. */
  origin: string;
}

const MAX_TEXT = 240;
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** One execution and its events; subagents nest where they started. */
export function ExecutionNodeView({ node, origin }: Props) {
  const total = treeUsage(node).totalTokens;
  const own = node.usage.totalTokens;
  const tokens =
    total === own
      ? formatTokens(own)
      : `${formatTokens(own)} (${total.toLocaleString()} with subagents)`;
  const cost = node.usage.costUsd === undefined ? '' : ` · ${formatCost(node.usage.costUsd)}`;
  const start = Date.parse(origin);
  return (
    <li className="execution">
      <details open>
        <summary>
          <strong>{node.agent}</strong>
          <span className="muted">
            {' '}
            · depth {node.depth} · {formatDuration(node.durationMs)} · {tokens}
            {cost}
          </span>
        </summary>
        <ol className="events">
          {timelineRows(node).map((row) =>
            row.kind === 'child' ? (
              <ExecutionNodeView key={row.node.executionId} node={row.node} origin={origin} />
            ) : (
              <li key={row.event.seq} className="event-row">
                <span className="muted event-offset">
                  +{formatDuration(Date.parse(row.event.timestamp) - start)}
                </span>
                <span className={`event-type type-${row.event.type}`}>{row.event.type}</span>
                <span className="event-text">{clip(row.text)}</span>
                {row.durationMs !== undefined && (
                  <span className="muted">{formatDuration(row.durationMs)}</span>
                )}
              </li>
            ),
          )}
        </ol>
      </details>
    </li>
  );
}
