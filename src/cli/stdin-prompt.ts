import type { AgentDefinition } from '../definition/types.js';
import { inputsJsonSchema, PROMPT_INPUT } from '../runtime/prompt/inputs.js';
import type { CliIO } from './cli-io.js';

/**
 * The prompt words, or, when none were given (nor `--input prompt=`) to an
 * agent that takes a prompt, what was piped on stdin (`git diff | cadre run
 * reviewer`). Stdin is read only then: a script that leaves stdin open and
 * gives its prompt on the command line is never kept waiting.
 */
export async function promptOrStdin(
  definition: AgentDefinition,
  inputs: readonly string[],
  promptWords: readonly string[],
  io: CliIO,
): Promise<readonly string[]> {
  if (promptWords.length > 0 || !io.readStdin) return promptWords;
  if (inputs.some((pair) => pair.startsWith(`${PROMPT_INPUT}=`))) return promptWords;
  const properties = (inputsJsonSchema(definition).properties ?? {}) as Record<string, unknown>;
  if (!(PROMPT_INPUT in properties)) return promptWords;
  const text = (await io.readStdin()).trim();
  return text ? [text] : promptWords;
}
