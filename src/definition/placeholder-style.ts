import { isRecord } from './describe-value.js';
import type { AgentDefinition, DefinitionSource, PlaceholderStyle } from './types.js';

type PromptOwner = Pick<AgentDefinition, 'promptConfig' | 'source' | 'inputConfig'>;

/**
 * Each tool's own rule: Claude Code runs a subagent's body unchanged, ADK
 * injects `{var}` from session state, Gemini CLI (like Cadre) fills `${var}`.
 */
export function dialectPlaceholders(foreign: DefinitionSource['foreign']): PlaceholderStyle {
  switch (foreign) {
    case 'claude-code':
      return 'none';
    case 'adk':
      return 'braces';
    case 'gemini-cli':
    case undefined:
      return 'dollar';
    default:
      return foreign satisfies never;
  }
}

/** The definition's own style, else its dialect's (a definition built in code may carry only `source`). */
export const placeholderStyleOf = (definition: PromptOwner): PlaceholderStyle =>
  definition.promptConfig.placeholders ?? dialectPlaceholders(definition.source?.foreign);

/** Without an inputConfig an agent takes one string, `prompt` (as normalizeInput and runtime/inputs.ts say). */
const PROMPT_INPUT = 'prompt';

/**
 * Other names an input goes by in placeholders: Gemini CLI calls a Markdown
 * agent's one input `query`, so its bodies say `${query}` for Cadre's `prompt`.
 */
export function inputAliases(definition: PromptOwner): Readonly<Record<string, string>> {
  return definition.source?.foreign === 'gemini-cli' && !definition.inputConfig
    ? { query: PROMPT_INPUT }
    : {};
}

/** Names a placeholder may use whatever the run's state holds: the inputs and their aliases. */
export function placeholderInputNames(definition: PromptOwner): string[] {
  const config = definition.inputConfig;
  const properties = config?.inputSchema?.properties;
  const inputs = config
    ? Object.keys(config.inputs ?? (isRecord(properties) ? properties : {}))
    : [PROMPT_INPUT];
  return [...inputs, ...Object.keys(inputAliases(definition))];
}
