import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrajectory, parseTrajectory, saveTrajectory } from './load-trajectory.js';
import { recordNotifier } from './testing/test-support.js';

describe('loading trajectories', () => {
  it('round-trips a recorded trajectory (scripted model behaviour) through a file', async () => {
    const { trajectory } = await recordNotifier();
    const file = join(await mkdtemp(join(tmpdir(), 'cadre-traj-')), 'runs/one.json');
    await saveTrajectory(file, trajectory);
    expect(await loadTrajectory(file)).toEqual(JSON.parse(JSON.stringify(trajectory)));
  });

  it('names an unknown schema_version and the supported ones', async () => {
    await expect(parseTrajectory({ schema_version: 99 }, 'runs/future.json')).rejects.toThrow(
      'runs/future.json has trajectory schema_version 99, which this Cadre cannot read. Supported: 1 (current 1).',
    );
    await expect(parseTrajectory({ schema_version: '1' }, 'x.json')).rejects.toThrow(
      'schema_version "1"',
    );
  });

  it('says when a file is not a trajectory at all', async () => {
    await expect(parseTrajectory({ id: 'x' }, 'x.json')).rejects.toThrow(
      'x.json has no schema_version: is it a Cadre trajectory',
    );
    await expect(parseTrajectory([], 'x.json')).rejects.toThrow('expected a JSON object');
    const dir = await mkdtemp(join(tmpdir(), 'cadre-traj-'));
    await writeFile(join(dir, 'bad.json'), '{ nope');
    await expect(loadTrajectory(join(dir, 'bad.json'))).rejects.toThrow('is not valid JSON');
  });

  it('lists where a version 1 file breaks the format', async () => {
    const { trajectory } = await recordNotifier();
    const broken = {
      ...trajectory,
      model_steps: [{ ...trajectory.model_steps[0], request_hash: 7 }],
    };
    await expect(parseTrajectory(broken, 'b.json')).rejects.toThrow(
      /b\.json is not a valid trajectory \(schema_version 1\):\n {2}model_steps\.0\.request_hash:/,
    );
  });
});
