import { parseModelString } from '../../model/resolve-model.js';

/**
 * The model string to resolve when a run's loop asks for `name`. A paused
 * run's state keeps the id its provider was called with (`turns.json` for
 * `scripted:turns.json`, `gpt-4.1` for `openai:gpt-4.1`); resolved as it
 * stands on resume, that id would go to Gemini. The run's own model string
 * names the provider, so a name that is its id resolves as that string.
 */
export function modelStringFor(name: string, runModel: string): string {
  if (name === runModel || !runModel) return name;
  try {
    return parseModelString(runModel).model === name ? runModel : name;
  } catch {
    return name;
  }
}
