import { formatUsd } from '../cost/prices.js';
import type { EvalReport, ScoreResult } from './types.js';

const MAX_LISTED = 20;

/** The summary table a person reads, then every run that did not pass (and why). */
export function formatSummary(report: EvalReport): string {
  const s = report.summary;
  const lines = [
    `${report.interrupted ? 'Interrupted. ' : ''}Eval of ${report.agent} on ${report.dataset}: ` +
      `${s.completed} of ${s.runs} runs finished, ${s.run_errors} failed to answer` +
      (s.aborted + s.not_started > 0 ? `, ${s.aborted + s.not_started} not finished` : '') +
      ` (${report.duration_secs.toFixed(1)} s)`,
    '',
  ];
  const rows = [['scorer', 'mean', 'pass rate', 'scored', 'skipped', 'errors']];
  for (const [name, x] of Object.entries(s.scorers)) {
    rows.push([
      name,
      x.mean === null ? '—' : x.mean.toFixed(3),
      x.pass_rate === null ? '—' : `${Math.round(x.pass_rate * 100)}% (${x.passed}/${x.scored})`,
      String(x.scored),
      String(x.skipped),
      String(x.errors),
    ]);
  }
  lines.push(...table(rows), '');
  const secs = (v: number | null): string => (v === null ? '—' : `${v.toFixed(2)} s`);
  lines.push(
    `latency p50 ${secs(s.latency.p50_secs)}, p95 ${secs(s.latency.p95_secs)} · tokens ${s.tokens.total} ` +
      `(input ${s.tokens.input}, output ${s.tokens.output})${s.tokens.judge ? ` · judge tokens ${s.tokens.judge}` : ''}` +
      (s.cost_usd
        ? ` · cost ${formatUsd(s.cost_usd.total)}${s.cost_usd.judge ? ` (judge ${formatUsd(s.cost_usd.judge)})` : ''}`
        : ''),
  );
  const problems = report.results.flatMap((r) =>
    Object.entries(r.scores).flatMap(([name, score]) => {
      const text = problem(score);
      return text
        ? [`  ${r.row_id}${r.repeat > 0 ? ` #${r.repeat + 1}` : ''} ${name} ${text}`]
        : [];
    }),
  );
  if (problems.length > 0) {
    lines.push('', 'Not passed:', ...problems.slice(0, MAX_LISTED));
    if (problems.length > MAX_LISTED)
      lines.push(`  …and ${problems.length - MAX_LISTED} more (--json for all)`);
  }
  return `${lines.join('\n')}\n`;
}

function problem(score: ScoreResult): string | undefined {
  switch (score.status) {
    case 'scored':
      return score.passed
        ? undefined
        : `${score.label ?? score.score.toFixed(2)}: ${score.detail ?? 'no detail'}`;
    case 'error':
      return `error: ${score.error}`;
    case 'skipped':
      return undefined;
    default:
      return score satisfies never;
  }
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}
