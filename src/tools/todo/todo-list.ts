import { ToolExecutionError } from '../../errors/index.js';
import { TODO_STATUSES, type TodoItem, type TodoStatus } from '../../contracts/todo-item.js';

/** An item as a model writes it: Claude Code says `content`, Gemini CLI `description`. */
export interface WrittenTodo {
  content?: string;
  description?: string;
  status?: TodoStatus;
  id?: string;
  activeForm?: string;
}

export interface TodoList {
  todos: TodoItem[];
  /** Problems worth telling the model that do not make the list unusable. */
  warnings: string[];
}

/**
 * The list a call wrote, normalised: one text field, a status (pending when
 * left out) and an id (its position when left out). Only an item with no
 * text is refused; the rest is accepted and, where odd, warned about.
 */
export function normalizeTodos(written: readonly WrittenTodo[]): TodoList {
  const todos = written.map((item, index): TodoItem => {
    const content = (item.content ?? item.description ?? '').trim();
    if (!content) throw new ToolExecutionError(`todos[${index}] has no text: give it "content".`);
    const activeForm = item.activeForm?.trim();
    return {
      id: item.id?.trim() || String(index + 1),
      content,
      status: item.status ?? 'pending',
      ...(activeForm ? { activeForm } : {}),
    };
  });
  return { todos, warnings: warningsFor(todos) };
}

function warningsFor(todos: readonly TodoItem[]): string[] {
  const warnings: string[] = [];
  const running = todos.filter((todo) => todo.status === 'in_progress');
  if (running.length > 1)
    warnings.push(
      `${running.length} items are in_progress (${running.map((t) => t.id).join(', ')}); keep one in progress at a time.`,
    );
  const ids = todos.map((todo) => todo.id);
  const repeated = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
  if (repeated.length > 0)
    warnings.push(`ids used more than once: ${repeated.join(', ')}; give each item its own id.`);
  return warnings;
}

/** "3 todos: 1 pending, 1 in progress, 1 completed": the counts that are not zero. */
export function summarizeTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'no todos';
  const counts = TODO_STATUSES.flatMap((status) => {
    const count = todos.filter((todo) => todo.status === status).length;
    return count > 0 ? [`${count} ${status.replace('_', ' ')}`] : [];
  });
  return `${todos.length} todo${todos.length === 1 ? '' : 's'}: ${counts.join(', ')}`;
}
