import { resolve } from 'node:path';
import { readTextSync } from '../util/builtins-on-demand.js';
import { ConfigError } from '../errors/cadre-error.js';
import { checkScriptTurns } from './scripted-file-check.js';
import { ScriptedModel, type ScriptedModelOptions } from './scripted-model.js';

/**
 * `--model scripted:turns.json`: a model whose answers are read from a JSON
 * list of turns. The tools still run for real; only the model is canned.
 * Used for demos and tests on machines with no model to reach. A turn may
 * branch on what the latest tool calls returned or what the prompt says
 * (`branches: [{when, parts}]`, see ScriptCondition).
 */
export function loadScriptedModel(
  file: string,
  cwd = process.cwd(),
  options: Omit<ScriptedModelOptions, 'source'> = {},
): ScriptedModel {
  const path = resolve(cwd, file);
  let value: unknown;
  try {
    value = JSON.parse(readTextSync(path));
  } catch (error) {
    throw new ConfigError(
      `Cannot read scripted model turns from ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const turns = checkScriptTurns(value);
  if (typeof turns === 'string') throw new ConfigError(`${file}: ${turns}.`);
  return new ScriptedModel(turns, { ...options, source: file });
}
