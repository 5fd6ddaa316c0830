import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ValidationError } from '../errors/validation-error.js';
import { closedEvent } from '../events/known-events.js';
import { TRAJECTORY_SCHEMA_VERSION, type Trajectory } from './types.js';

/**
 * One reader per schema_version we ever wrote. Each turns its version into
 * the current shape, so old recordings keep loading: when version 2
 * arrives, version 1's reader becomes `upgradeV1(validateV1(raw))`.
 */
type VersionReader = (raw: unknown, source: string) => Promise<Trajectory>;

const READERS: Record<number, VersionReader> = {
  1: async (raw, source) => {
    const { trajectorySchemaV1 } = await import('./trajectory-schema.js');
    const parsed = trajectorySchemaV1.safeParse(raw);
    if (parsed.success) return withClosedEvents(withPauseDecisions(raw as Trajectory));
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    const more =
      parsed.error.issues.length > 5 ? `\n  …and ${parsed.error.issues.length - 5} more` : '';
    throw invalid(
      source,
      `is not a valid trajectory (schema_version 1):\n${issues.join('\n')}${more}`,
    );
  },
};

/** A decision recorded as `defer`, the word before `pause`, reads as `pause`. */
function withPauseDecisions(trajectory: Trajectory): Trajectory {
  const older = (kind: string): boolean => kind === 'defer';
  if (!trajectory.approvals.some((a) => older(a.decision.kind))) return trajectory;
  return {
    ...trajectory,
    approvals: trajectory.approvals.map((a) =>
      older(a.decision.kind) ? { ...a, decision: { kind: 'pause' } } : a,
    ),
  };
}

/** A recorded event of a type this version does not know (an agent's own, before `custom`) reads as `custom`. */
function withClosedEvents(trajectory: Trajectory): Trajectory {
  return { ...trajectory, events: trajectory.events.map(closedEvent) };
}

export const SUPPORTED_TRAJECTORY_VERSIONS: readonly number[] = Object.keys(READERS).map(Number);

/** Checks the version first, then the shape; every failure names the file and what to do. */
export async function parseTrajectory(raw: unknown, source = 'trajectory'): Promise<Trajectory> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid(source, 'is not a trajectory: expected a JSON object.');
  const version = (raw as { schema_version?: unknown }).schema_version;
  if (version === undefined)
    throw invalid(source, 'has no schema_version: is it a Cadre trajectory (cadre run --record)?');
  const reader = typeof version === 'number' ? READERS[version] : undefined;
  if (!reader) {
    throw invalid(
      source,
      `has trajectory schema_version ${JSON.stringify(version)}, which this Cadre cannot read. ` +
        `Supported: ${SUPPORTED_TRAJECTORY_VERSIONS.join(', ')} (current ${TRAJECTORY_SCHEMA_VERSION}). ` +
        'Upgrade Cadre to read newer recordings.',
    );
  }
  return reader(raw, source);
}

export async function loadTrajectory(file: string, signal?: AbortSignal): Promise<Trajectory> {
  let text: string;
  try {
    text = await readFile(file, { encoding: 'utf8', signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw invalid(file, `cannot be read: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `is not valid JSON: ${(error as Error).message}`);
  }
  return parseTrajectory(raw, file);
}

/** Writes pretty JSON, creating the folder if needed. */
export async function saveTrajectory(
  file: string,
  trajectory: Trajectory,
  signal?: AbortSignal,
): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(trajectory, null, 2)}\n`, { encoding: 'utf8', signal });
}

/** `<file> <problem>`: a bad trajectory is bad input (exit 1), like a bad definition. */
function invalid(file: string, message: string): ValidationError {
  return new ValidationError([{ path: '', file, message }]);
}
