import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../errors/index.js';
import type { EventInput } from '../../events/types.js';
import { contextFor } from '../builtin/testing/test-support.js';
import { TODOS_UPDATED, todosOf } from './todo-event.js';
import { todoWriteTool } from './todo-tool.js';

const run = async (args: Record<string, unknown>) => {
  const events: EventInput[] = [];
  const ctx = {
    ...contextFor('/nowhere', new AbortController().signal),
    emit: (e: EventInput) => events.push(e),
  };
  return { output: await todoWriteTool.execute(args, ctx), events };
};

describe('todo_write', () => {
  it('is read-only: it changes nothing outside the run', () => {
    expect(todoWriteTool).toMatchObject({ name: 'todo_write', sideEffect: false });
    expect(todoWriteTool.defaultApproval).toBeUndefined();
  });

  it("its schema takes both tools' shapes and refuses what neither writes", () => {
    const validate = new Ajv({ strict: true }).compile(todoWriteTool.inputSchema);
    const valid = [
      { todos: [] },
      // Claude Code's TodoWrite (the older one also sent id and priority).
      { todos: [{ content: 'Run tests', status: 'in_progress', activeForm: 'Running tests' }] },
      { todos: [{ id: '1', content: 'Run tests', status: 'pending', priority: 'high' }] },
      // Gemini CLI's write_todos.
      { todos: [{ description: 'Run tests', status: 'cancelled' }] },
    ];
    for (const args of valid) expect(validate(args), JSON.stringify(args)).toBe(true);
    const invalid = [
      {},
      { todos: 'Run tests' },
      { todos: [{ content: 'Run tests', status: 'done' }] },
      { todos: [], extra: true },
      { todos: Array.from({ length: 101 }, () => ({ content: 'x' })) },
    ];
    for (const args of invalid) expect(validate(args), JSON.stringify(args)).toBe(false);
  });

  it('returns the normalised list with a summary and emits it as todos_updated', async () => {
    const { output, events } = await run({
      todos: [
        { content: 'Read the code', status: 'completed' },
        { description: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
        { content: 'Run the tests' },
      ],
    });
    const todos = [
      { id: '1', content: 'Read the code', status: 'completed' },
      { id: '2', content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
      { id: '3', content: 'Run the tests', status: 'pending' },
    ];
    const summary = '3 todos: 1 pending, 1 in progress, 1 completed';
    expect(output).toEqual({ summary, todos });
    expect(events).toEqual([{ type: TODOS_UPDATED, message: summary, data: { todos, summary } }]);
    expect(todosOf(events[0]?.data ?? {})).toEqual(todos);
  });

  it('a second item in progress is a warning in the result, not an error', async () => {
    const { output } = await run({
      todos: [
        { content: 'a', status: 'in_progress' },
        { content: 'b', status: 'in_progress' },
      ],
    });
    expect(output).toMatchObject({
      warnings: ['2 items are in_progress (1, 2); keep one in progress at a time.'],
    });
  });

  it('does nothing once the run is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const events: EventInput[] = [];
    const ctx = {
      ...contextFor('/nowhere', controller.signal),
      emit: (e: EventInput) => events.push(e),
    };
    await expect(todoWriteTool.execute({ todos: [] }, ctx)).rejects.toBeInstanceOf(CancelledError);
    expect(events).toEqual([]);
  });
});

describe('todosOf', () => {
  it('reads only a well-formed list', () => {
    expect(todosOf({ todos: [{ id: '1', content: 'a', status: 'pending' }] })).toHaveLength(1);
    expect(todosOf({ todos: [{ id: '1', content: 'a', status: 'done' }] })).toBeUndefined();
    expect(todosOf({ todos: 'a' })).toBeUndefined();
    expect(todosOf({})).toBeUndefined();
  });
});
