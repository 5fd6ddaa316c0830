import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { loadTrajectory } from '../trajectory/load-trajectory.js';
import type { EvalRow } from './types.js';

export interface TrajectoryDataset {
  rows: EvalRow[];
  /** Files skipped, and why (unreadable, or the recorded run did not reach its goal). */
  warnings: string[];
  /** Agent names the trajectories were recorded for. */
  agents: string[];
}

/**
 * A folder of trajectories as a regression set: each recorded run's inputs
 * become a row whose expected answer is the output it recorded. Files are
 * taken in name order; runs that failed have no answer to expect and are
 * skipped with a warning.
 */
export async function loadTrajectoryDataset(
  dir: string,
  signal?: AbortSignal,
): Promise<TrajectoryDataset> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  const rows: EvalRow[] = [];
  const warnings: string[] = [];
  const agents = new Set<string>();
  for (const name of files) {
    signal?.throwIfAborted();
    const file = join(dir, name);
    let trajectory;
    try {
      trajectory = await loadTrajectory(file, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      warnings.push(`skipped ${file}: ${(error as Error).message}`);
      continue;
    }
    const result = trajectory.metadata.final_result;
    if (result.terminate_reason !== 'GOAL') {
      warnings.push(`skipped ${file}: the recorded run ended ${result.terminate_reason}`);
      continue;
    }
    agents.add(trajectory.agent.name);
    rows.push({
      id: basename(name, '.json'),
      inputs: trajectory.inputs,
      expected: result.output,
      source: file,
    });
  }
  return { rows, warnings, agents: [...agents] };
}
