import { ConfigError } from '../errors/cadre-error.js';
import { StoredDataError } from '../errors/stored-data-error.js';
import type { RunState } from './run-state.js';

/** The version of `RunState` this code writes and resumes. */
export const RUN_STATE_VERSION: RunState['version'] = 1;

/** Turns a stored state of one version into the next version's shape. */
export type RunStateUpgrade = (state: Record<string, unknown>) => Record<string, unknown>;

/**
 * The step from version n to n + 1, by n. A change to `RunState` that older
 * code could not read (or that older states lack and this code cannot do
 * without) bumps the version and adds its step here, so runs paused before it
 * still resume. Fields added as optional need no step: version 1 grew that
 * way (pendingTurn, subagentCosts, children, contextTokens, code, costSpentUsd), and the
 * fixtures beside this file keep states as each of those versions wrote them.
 */
const RUN_STATE_UPGRADES: Readonly<Record<number, RunStateUpgrade>> = {};

/**
 * A stored state as this code's `RunState`: an older version is upgraded
 * step by step, then checked against the schema; a newer one, or one without
 * a version, is refused with a message that says which, and one that does not
 * fit the schema with a `StoredDataError` naming the field, since resuming
 * what this code cannot read would misread its calls and answers.
 */
export async function readRunState(
  value: unknown,
  upgrades: Readonly<Record<number, RunStateUpgrade>> = RUN_STATE_UPGRADES,
  current: number = RUN_STATE_VERSION,
): Promise<RunState> {
  const upgraded = upgradeRunState(value, upgrades, current);
  // zod loads on the first resume, not when the package is imported.
  const { checkRunState } = await import('./run-state-schema.js');
  const checked = checkRunState(upgraded);
  if (!checked.ok)
    throw new StoredDataError(`run state of run ${String(upgraded['runId'])}`, checked.issues);
  return checked.state;
}

/** The version checks and upgrade steps alone: the state in the current version's shape, unchecked. */
function upgradeRunState(
  value: unknown,
  upgrades: Readonly<Record<number, RunStateUpgrade>> = RUN_STATE_UPGRADES,
  current: number = RUN_STATE_VERSION,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError('A stored run state must be an object.');
  let state = value as Record<string, unknown>;
  const version = state['version'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw new ConfigError(
      `A stored run state has no valid version (${JSON.stringify(version) ?? 'none'}): it was not written by Cadre.`,
    );
  if (version > current)
    throw new ConfigError(
      `Run ${String(state['runId'])} was stored by a newer Cadre (run state version ${version}); ` +
        `this one reads versions up to ${current}. Upgrade Cadre to resume it.`,
    );
  for (let from = version; from < current; from++) {
    const step = upgrades[from];
    if (!step) throw new ConfigError(`No upgrade from run state version ${from} to ${from + 1}.`);
    state = { ...step(state), version: from + 1 };
  }
  return state;
}
