import { describe, expect, it } from 'vitest';
import { createProgressPrinter } from '../../cli/progress.js';
import { createStyle } from '../../cli/style.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import { run } from '../../runtime/run-verbs.js';
import { validateDefinitionObject } from '../../definition/validate-definition.js';
import { builtinTools } from '../builtin/index.js';

const plan = (...todos: Array<Record<string, unknown>>): ScriptedTurn => ({
  parts: [{ functionCall: { name: 'todo_write', args: { todos } } }],
});

describe('todo_write in a run (scripted model responses)', () => {
  it("a Claude Code agent's TodoWrite keeps the plan in the run's events and progress", async () => {
    const { definition } = validateDefinitionObject(
      {
        name: 'planner',
        description: 'Plans, then works',
        promptConfig: { systemPrompt: 'Plan first.' },
        toolConfig: { tools: ['Read', 'TodoWrite'] },
      },
      { source: { file: 'planner.md', format: 'markdown', foreign: 'claude-code' } },
    );
    expect(definition.toolConfig.tools).toEqual(['read_file', 'todo_write']);
    const model = new ScriptedModel([
      plan({ content: 'Read the code', status: 'in_progress' }, { content: 'Fix the bug' }),
      // Gemini CLI's spelling, restating the same plan: shown once.
      plan({ description: 'Read the code', status: 'in_progress' }, { description: 'Fix the bug' }),
      plan(
        { content: 'Read the code', status: 'completed' },
        { content: 'Fix the bug', status: 'in_progress' },
      ),
      { parts: [{ text: 'Done.' }] },
    ]);
    const events: CadreEvent[] = [];
    const printed: string[] = [];
    const progress = createProgressPrinter((text) => printed.push(text), createStyle(false));
    const result = await run(definition, {
      model,
      tools: builtinTools,
      inputs: { prompt: 'Fix it' },
      onEvent: (event) => {
        events.push(event);
        progress(event);
      },
    });

    expect(result.terminate_reason).toBe('GOAL');
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toContain('todo_write');
    const updates = events.filter((event) => event.type === 'todos_updated');
    expect(updates).toHaveLength(3);
    expect(updates.at(-1)).toMatchObject({
      message: '2 todos: 1 in progress, 1 completed',
      depth: 0,
      data: {
        todos: [
          { id: '1', content: 'Read the code', status: 'completed' },
          { id: '2', content: 'Fix the bug', status: 'in_progress' },
        ],
      },
    });
    const response = model.requests[1]?.messages
      .at(-1)
      ?.parts.find((part) => part.kind === 'function_response');
    expect(response).toMatchObject({
      name: 'todo_write',
      response: { output: { summary: '2 todos: 1 pending, 1 in progress' } },
    });
    expect(
      printed
        .join('')
        .split('\n')
        .filter((l) => /^ +[☰☐▶☑]/.test(l)),
    ).toEqual([
      '  ☰ 2 todos: 1 pending, 1 in progress',
      '    ▶ Read the code',
      '    ☐ Fix the bug',
      '  ☰ 2 todos: 1 in progress, 1 completed',
      '    ☑ Read the code',
      '    ▶ Fix the bug',
    ]);
  });
});
