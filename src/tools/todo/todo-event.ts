import type { EventInputOf } from '../../events/types.js';
import { TODO_STATUSES, type TodoItem, type TodoStatus } from '../../contracts/todo-item.js';

export const TODOS_UPDATED = 'todos_updated';

/**
 * The run's plan changed: the event carries the whole list, so the latest
 * one of an execution is its plan (progress, the event log, replay).
 */
export function todosUpdated(
  todos: readonly TodoItem[],
  summary: string,
): EventInputOf<'todos_updated'> {
  return { type: TODOS_UPDATED, message: summary, data: { todos, summary } };
}

const isStatus = (value: unknown): value is TodoStatus =>
  (TODO_STATUSES as readonly unknown[]).includes(value);

const isTodo = (value: unknown): value is TodoItem => {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return typeof item.id === 'string' && typeof item.content === 'string' && isStatus(item.status);
};

/** The list a todos_updated event carries; undefined when its data is not one (a recorded event from elsewhere). */
export function todosOf(data: Readonly<Record<string, unknown>>): TodoItem[] | undefined {
  const todos = data.todos;
  return Array.isArray(todos) && todos.every(isTodo) ? todos : undefined;
}
