import { ModelError } from '../errors/model-error.js';
import { formatDiff, type DiffEntry } from './json-diff.js';

/** Where a replay stopped following its recording. Steps are 1-based. */
export type Divergence =
  | {
      kind: 'model_request';
      step: number;
      message: string;
      recorded_hash: string;
      replayed_hash: string;
      diff: DiffEntry[];
    }
  | { kind: 'model_exhausted'; step: number; message: string }
  | { kind: 'tool_unrecorded'; tool: string; message: string };

export interface ReplayCounts {
  recorded: number;
  replayed: number;
  live: number;
}

/** What one replay did: how much came from the recording, and every divergence. */
export interface ReplayReport {
  trajectory_id: string;
  agent: string;
  model_steps: ReplayCounts;
  tool_steps: ReplayCounts;
  /** The 1-based model step the live model took over at (`until`). */
  forked_at?: number;
  /** The definition run differs from the recorded snapshot (hash). */
  definition_changed: boolean;
  divergences: Divergence[];
  notes: string[];
}

/** Shared by the replay model and replay tools of one replay; never between replays. */
export class ReplayLog {
  readonly divergences: Divergence[] = [];
  readonly notes: string[] = [];
  readonly model = { replayed: 0, live: 0 };
  readonly tools = { replayed: 0, live: 0 };
  /** Set once the live model has taken over: later tool calls run for real. */
  forkedAt?: number;

  diverge(divergence: Divergence): void {
    this.divergences.push(divergence);
  }
}

/** Thrown under `strict` at the first divergence; the run ends as an ERROR with this message. */
export class ReplayDivergenceError extends ModelError {
  readonly divergence: Divergence;

  constructor(divergence: Divergence) {
    super(`Replay diverged: ${describeDivergence(divergence)}`);
    this.divergence = divergence;
  }
}

/** One paragraph a person reads: where, and (for requests) what differs. */
export function describeDivergence(d: Divergence): string {
  switch (d.kind) {
    case 'model_request':
      return `${d.message}\n${formatDiff(d.diff)}`;
    case 'model_exhausted':
    case 'tool_unrecorded':
      return d.message;
    default:
      return d satisfies never;
  }
}
