import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';
import { ScriptedModel, type ScriptedTurn } from './scripted-model.js';

/**
 * `--model scripted:turns.json`: a model whose answers are read from a JSON
 * list of turns. The tools still run for real; only the model is canned.
 * Used for demos and tests on machines with no model to reach.
 */
export function loadScriptedModel(file: string, cwd = process.cwd()): ScriptedModel {
  const path = resolve(cwd, file);
  let turns: unknown;
  try {
    turns = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `Cannot read scripted model turns from ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const list = Array.isArray(turns) ? turns : (turns as { turns?: unknown } | null)?.turns;
  if (
    !Array.isArray(list) ||
    !list.every((t) => Array.isArray((t as { parts?: unknown } | null)?.parts))
  ) {
    throw new ConfigError(
      `${file}: expected a JSON list of turns like [{"parts": [{"text": "hi"}]}] (or {"turns": [...]}).`,
    );
  }
  return new ScriptedModel(list as ScriptedTurn[]);
}
