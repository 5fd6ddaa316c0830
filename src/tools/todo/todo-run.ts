import { throwIfAborted } from '../builtin/abort.js';
import type { ToolContext } from '../types.js';
import { todosUpdated } from './todo-event.js';
import { normalizeTodos, summarizeTodos, type WrittenTodo } from './todo-list.js';

/** Runs one `todo_write` call: the plan it writes goes out as a `todos_updated` event. */
export async function runTodoWrite(written: WrittenTodo[], ctx: ToolContext): Promise<unknown> {
  throwIfAborted(ctx.signal);
  const { todos, warnings } = normalizeTodos(written);
  const summary = summarizeTodos(todos);
  ctx.emit(todosUpdated(todos, summary));
  return { summary, todos, ...(warnings.length > 0 ? { warnings } : {}) };
}
