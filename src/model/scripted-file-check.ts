import { TOOL_OUTCOMES } from './script-conditions.js';
import type { ScriptedTurn } from './scripted-model.js';

const CONDITION_KEYS = ['toolResult', 'promptIncludes', 'sectionIncludes'];

/**
 * Checks a scripted model file's turns: each `{parts, branches?}`, each
 * branch `{when, parts}`. Returns the turns, or what is wrong and where
 * (`turn 2, branch 1: …`), so a typo fails at load instead of mid-run.
 */
export function checkScriptTurns(value: unknown): ScriptedTurn[] | string {
  const list = Array.isArray(value) ? value : (value as { turns?: unknown } | null)?.turns;
  if (!Array.isArray(list))
    return 'expected a JSON list of turns like [{"parts": [{"text": "hi"}]}] (or {"turns": [...]})';
  for (const [i, turn] of list.entries()) {
    const problem = turnProblem(turn);
    if (problem) return `turn ${i + 1}: ${problem}`;
  }
  return list as ScriptedTurn[];
}

function turnProblem(turn: unknown): string | undefined {
  if (!isObject(turn)) return 'expected an object like {"parts": [{"text": "hi"}]}';
  const parts = partsProblem(turn.parts);
  if (parts) return parts;
  if (turn.branches === undefined) return undefined;
  if (!Array.isArray(turn.branches))
    return '"branches" must be a list of {"when": {…}, "parts": […]}';
  for (const [i, branch] of turn.branches.entries()) {
    const problem = isObject(branch)
      ? (conditionProblem(branch.when) ?? partsProblem(branch.parts))
      : 'expected {"when": {…}, "parts": […]}';
    if (problem) return `branch ${i + 1}: ${problem}`;
  }
  return undefined;
}

function partsProblem(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return '"parts" must be a list';
  const bad = parts.findIndex(
    (p) =>
      !isObject(p) ||
      !(
        typeof p.text === 'string' ||
        typeof p.thought === 'string' ||
        (isObject(p.functionCall) &&
          typeof p.functionCall.name === 'string' &&
          isObject(p.functionCall.args))
      ),
  );
  return bad < 0
    ? undefined
    : `part ${bad + 1} must be {"text": …}, {"thought": …} or {"functionCall": {"name": …, "args": {…}}}`;
}

function conditionProblem(when: unknown): string | undefined {
  if (!isObject(when) || Object.keys(when).length === 0)
    return `"when" must be an object with any of ${CONDITION_KEYS.join(', ')}`;
  const unknown = Object.keys(when).find((key) => !CONDITION_KEYS.includes(key));
  if (unknown)
    return `"when" has an unknown field "${unknown}" (known: ${CONDITION_KEYS.join(', ')})`;
  const { toolResult, promptIncludes, sectionIncludes } = when;
  if (toolResult !== undefined && !TOOL_OUTCOMES.some((o) => o === toolResult))
    return `"toolResult" must be one of ${TOOL_OUTCOMES.join(', ')}`;
  if (promptIncludes !== undefined && typeof promptIncludes !== 'string')
    return '"promptIncludes" must be a text';
  if (
    sectionIncludes !== undefined &&
    !(
      Array.isArray(sectionIncludes) &&
      sectionIncludes.length === 2 &&
      sectionIncludes.every((s) => typeof s === 'string' && s !== '')
    )
  )
    return '"sectionIncludes" must be two section names, like ["answer", "expected"]';
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
