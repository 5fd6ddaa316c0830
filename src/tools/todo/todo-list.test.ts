import { describe, expect, it } from 'vitest';
import { ToolExecutionError } from '../../errors/index.js';
import { normalizeTodos, summarizeTodos } from './todo-list.js';

describe('normalizeTodos', () => {
  it("takes Claude Code's content and Gemini CLI's description alike", () => {
    expect(
      normalizeTodos([
        { id: 'a', content: ' Read the code ', status: 'completed', activeForm: 'Reading' },
        { description: 'Fix the bug', status: 'in_progress' },
        { description: 'Old idea', status: 'cancelled' },
        { content: 'Ship' },
      ]),
    ).toEqual({
      todos: [
        { id: 'a', content: 'Read the code', status: 'completed', activeForm: 'Reading' },
        { id: '2', content: 'Fix the bug', status: 'in_progress' },
        { id: '3', content: 'Old idea', status: 'cancelled' },
        { id: '4', content: 'Ship', status: 'pending' },
      ],
      warnings: [],
    });
  });

  it('warns about more than one item in progress and repeated ids, and keeps the list', () => {
    const { todos, warnings } = normalizeTodos([
      { id: 'x', content: 'One', status: 'in_progress' },
      { id: 'x', content: 'Two', status: 'in_progress' },
    ]);
    expect(todos).toHaveLength(2);
    expect(warnings).toEqual([
      '2 items are in_progress (x, x); keep one in progress at a time.',
      'ids used more than once: x; give each item its own id.',
    ]);
  });

  it('refuses an item with no text, naming it', () => {
    expect(() =>
      normalizeTodos([{ content: 'ok' }, { description: '  ', status: 'pending' }]),
    ).toThrow(new ToolExecutionError('todos[1] has no text: give it "content".'));
  });

  it('an empty list clears the plan', () => {
    expect(normalizeTodos([])).toEqual({ todos: [], warnings: [] });
  });
});

describe('summarizeTodos', () => {
  it('counts the statuses that occur, in order', () => {
    const { todos } = normalizeTodos([
      { content: 'a', status: 'completed' },
      { content: 'b', status: 'in_progress' },
      { content: 'c' },
      { content: 'd', status: 'completed' },
    ]);
    expect(summarizeTodos(todos)).toBe('4 todos: 1 pending, 1 in progress, 2 completed');
    expect(summarizeTodos(todos.slice(2, 3))).toBe('1 todo: 1 pending');
    expect(summarizeTodos([])).toBe('no todos');
  });
});
