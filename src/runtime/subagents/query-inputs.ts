import type { AgentEntry } from '../../contracts/agent.js';
import { ToolExecutionError } from '../../errors/cadre-error.js';
import { PROMPT_INPUT } from '../prompt/inputs.js';

/** A query becomes the agent's prompt, its single input, or (as JSON) its inputs. */
export function inputsFor(entry: AgentEntry, query: string): Record<string, unknown> {
  if (entry.kind === 'code') return { [PROMPT_INPUT]: query };
  const config = entry.definition.inputConfig;
  if (!config) return { [PROMPT_INPUT]: query };
  const names = config.inputs
    ? Object.keys(config.inputs)
    : Object.keys((config.inputSchema?.properties as Record<string, unknown> | undefined) ?? {});
  if (names.length === 1) return { [names[0] as string]: query };
  try {
    const parsed: unknown = JSON.parse(query);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through to the explanation below
  }
  throw new ToolExecutionError(
    `'${entry.definition.name}' takes several inputs (${names.join(', ')}): pass query as a JSON object of them.`,
  );
}
