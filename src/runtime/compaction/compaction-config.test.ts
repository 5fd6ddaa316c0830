import { describe, expect, it } from 'vitest';
import { validateDefinitionObject } from '../../definition/validate-definition.js';
import {
  contextWindowFor,
  DEFAULT_CONTEXT_WINDOWS,
  parseContextWindows,
} from '../../cost/context-windows.js';
import { compactionSettings } from './compaction-settings.js';

const agent = (runConfig: Record<string, unknown>) => ({
  name: 'a',
  description: 'd',
  promptConfig: { systemPrompt: 's' },
  runConfig,
});

describe('runConfig.compaction', () => {
  it('loads both spellings into one shape', () => {
    const camel = validateDefinitionObject(
      agent({ compaction: { keepTurns: 2, contextWindow: 50_000, maxToolResultChars: 900 } }),
    );
    const snake = validateDefinitionObject(
      agent({ compaction: { keep_turns: 2, context_window: 50_000, max_tool_result_chars: 900 } }),
    );
    expect(camel.definition.runConfig?.compaction).toEqual({
      keep_turns: 2,
      context_window: 50_000,
      max_tool_result_chars: 900,
    });
    expect(snake.definition.runConfig).toEqual(camel.definition.runConfig);
  });

  it('names the field of a bad value', () => {
    expect(() => validateDefinitionObject(agent({ compaction: { threshold: 2 } }))).toThrow(
      /runConfig\.compaction\.threshold/,
    );
  });

  it('takes the window from the model table, a project file, or the definition', () => {
    expect(contextWindowFor('openai:gpt-4o-2024-08-06', DEFAULT_CONTEXT_WINDOWS)).toBe(128_000);
    const table = {
      ...DEFAULT_CONTEXT_WINDOWS,
      ...parseContextWindows('{"my-model": {"contextWindow": 32000}}', 'models.json'),
    };
    expect(compactionSettings(undefined, 'my-model', { contextWindows: table })).toMatchObject({
      enabled: true,
      threshold: 0.8,
      keepTurns: 4,
      contextWindow: 32_000,
    });
    expect(compactionSettings({ context_window: 1_000 }, 'my-model', {}).contextWindow).toBe(1_000);
    expect(compactionSettings(undefined, 'scripted', {}).contextWindow).toBeUndefined();
    expect(() => parseContextWindows('{"m": {"contextWindow": -1}}', 'models.json')).toThrow(
      /models\.json: m/,
    );
  });
});
