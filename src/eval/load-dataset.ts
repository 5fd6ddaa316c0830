import { stat } from 'node:fs/promises';
import { ValidationError } from '../errors/validation-error.js';
import { loadJsonlDataset } from './jsonl-dataset.js';
import { loadTrajectoryDataset } from './trajectory-dataset.js';
import type { EvalRow } from './types.js';

export type DatasetKind = 'jsonl' | 'trajectories';

export interface Dataset {
  kind: DatasetKind;
  path: string;
  rows: EvalRow[];
  warnings: string[];
  /** For trajectory sets: the agents they were recorded for. */
  agents: string[];
}

/** A `.jsonl` file, or a folder of trajectories (a regression set). */
export async function loadDataset(path: string, signal?: AbortSignal): Promise<Dataset> {
  const info = await stat(path).catch(() => {
    throw new ValidationError([{ file: path, path: '', message: 'dataset not found' }]);
  });
  if (info.isDirectory()) {
    const set = await loadTrajectoryDataset(path, signal);
    if (set.rows.length === 0) {
      const why = set.warnings.length > 0 ? `: ${set.warnings.join('; ')}` : '';
      throw new ValidationError([
        { file: path, path: '', message: `no usable trajectories in this folder${why}` },
      ]);
    }
    return { kind: 'trajectories', path, ...set };
  }
  return {
    kind: 'jsonl',
    path,
    rows: await loadJsonlDataset(path, signal),
    warnings: [],
    agents: [],
  };
}
