import { describe, expect, it } from 'vitest';
import type { CadreEvent, CadreEventOf } from '../events/types.js';
import type { TodoItem } from '../contracts/todo-item.js';
import { createProgressPrinter, todoLine } from './progress.js';
import { createStyle } from './style.js';

const plain = createStyle(false);

const todosEvent = (
  todos: readonly TodoItem[],
  at: { executionId?: string; depth?: number } = {},
): CadreEventOf<'todos_updated'> => ({
  type: 'todos_updated',
  message: `${Array.isArray(todos) ? todos.length : 0} todos`,
  timestamp: new Date(0).toISOString(),
  data: { todos, summary: '' },
  runId: 'run',
  executionId: at.executionId ?? 'root',
  depth: at.depth ?? 0,
  path: ['agent'],
  seq: 1,
});

const printer = () => {
  const out: string[] = [];
  return { print: createProgressPrinter((text) => out.push(text), plain), out: () => out.join('') };
};

const todo = (content: string, status: TodoItem['status']): TodoItem => ({
  id: content,
  content,
  status,
});

describe('progress: the plan', () => {
  it('prints one line per item with its status marker', () => {
    expect(
      [
        todo('a', 'pending'),
        todo('b', 'in_progress'),
        todo('c', 'completed'),
        todo('d', 'cancelled'),
      ].map((t) => todoLine(t, plain)),
    ).toEqual(['☐ a', '▶ b', '☑ c', '☒ d']);
    expect(todoLine(todo('b', 'in_progress'), createStyle(true))).toBe('\u001b[36m▶\u001b[39m b');
  });

  it('prints the list under a header, indented by depth, only when it changes', () => {
    const { print, out } = printer();
    const first = [todo('Read', 'in_progress'), todo('Fix', 'pending')];
    print(todosEvent(first));
    print(todosEvent([...first]));
    print(todosEvent([todo('Read', 'completed'), todo('Fix', 'in_progress')]));
    print(todosEvent(first, { executionId: 'child', depth: 1 }));
    expect(out()).toBe(
      [
        '  ☰ 2 todos',
        '    ▶ Read',
        '    ☐ Fix',
        '  ☰ 2 todos',
        '    ☑ Read',
        '    ▶ Fix',
        '    ☰ 2 todos',
        '      ▶ Read',
        '      ☐ Fix',
        '',
      ].join('\n'),
    );
  });

  it('shows a cleared plan, and ignores an event whose list it cannot read', () => {
    const { print, out } = printer();
    // What a model might send that the tool's types rule out.
    print(todosEvent([{ content: 'no id or status' } as unknown as TodoItem]));
    expect(out()).toBe('');
    print(todosEvent([]));
    expect(out()).toBe('  ☰ 0 todos\n');
  });
});

describe('progress: text from the model is shown, never acted on by the terminal', () => {
  const event = (
    type: 'tool_result' | 'warning' | 'thought_delta',
    message: string,
  ): CadreEvent => {
    const base = { ...todosEvent([]), message };
    switch (type) {
      case 'tool_result':
        return { ...base, type, data: { callId: 'c1', tool: 'shell', ok: false, durationMs: 1 } };
      case 'warning':
        return { ...base, type, data: {} };
      case 'thought_delta':
        return { ...base, type, data: { text: message } };
    }
  };

  it('escapes a carriage return, an erase-line escape and a bidi override in any line', () => {
    const { print, out } = printer();
    print(event('tool_result', 'shell failed: no such file X #\r\x1b[2Kok'));
    print(event('warning', 'path notes\u202etxt.sh'));
    print(event('thought_delta', 'thinking\x1b]0;title\x07'));
    expect(out()).toContain('shell failed: no such file X #\\r\\x1b[2Kok');
    expect(out()).toContain('path notes\\u202etxt.sh');
    expect(out()).toContain('thinking\\x1b]0;title\\x07');
    expect(out()).not.toMatch(/[\r\x1b\u202e\x07]/);
  });

  it('escapes a plan item', () => {
    expect(todoLine(todo('do \x1b[2Kit', 'pending'), plain)).toBe('☐ do \\x1b[2Kit');
  });
});
