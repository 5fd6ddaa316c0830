import { describeDivergence, type ReplayReport } from './replay-log.js';

/** A few lines a person reads after a replay: what came from the recording, and the first divergence. */
export function formatReplayReport(report: ReplayReport, source: string): string {
  const m = report.model_steps;
  const t = report.tool_steps;
  const lines = [
    `Replayed ${m.replayed} of ${m.recorded} model steps and ${t.replayed} of ${t.recorded} tool results from ${source}` +
      (t.live > 0 ? `; ${t.live} tool call(s) ran for real` : '') +
      (report.forked_at !== undefined
        ? `; live model from step ${report.forked_at} (${m.live} step(s))`
        : '') +
      '.',
  ];
  if (report.definition_changed) lines.push('The definition differs from the recorded one.');
  for (const note of report.notes) lines.push(`note: ${note}`);
  const first = report.divergences[0];
  if (!first) {
    lines.push('No divergence: every request matched the recording.');
  } else {
    const others = report.divergences.length - 1;
    lines.push(
      `Diverged${others > 0 ? ` (${report.divergences.length} times)` : ''}. First divergence:`,
      describeDivergence(first),
    );
  }
  return `${lines.join('\n')}\n`;
}
