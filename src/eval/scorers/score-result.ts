import type { ScoreLabel, ScoreResult } from '../types.js';

/** A 0/1 (or fractional) score; passed means a full score, anything between is partial. */
export function scored(score: number, detail?: string, label?: ScoreLabel): ScoreResult {
  return {
    status: 'scored',
    score,
    passed: score >= 1,
    label: label ?? (score >= 1 ? 'pass' : score <= 0 ? 'fail' : 'partial'),
    ...(detail ? { detail } : {}),
  };
}

/** `"some long text…"`, for details a person reads in a failure list. */
export function quote(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
