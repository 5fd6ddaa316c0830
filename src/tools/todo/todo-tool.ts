import { defineTool } from '../types.js';
import {
  TODO_WRITE_TOOL,
  todoWriteSpec,
  type TodoWriteArgs,
} from '../builtin/builtin-tool-specs.js';

export { TODO_WRITE_TOOL };

export type { TodoWriteArgs };

/**
 * Claude Code's TodoWrite and Gemini CLI's write_todos: the model keeps its
 * plan as a list it rewrites whole on every call. Nothing outside the run
 * changes; the list goes out as a `todos_updated` event, so the latest call's
 * list is the plan of the run (per execution).
 */
export const todoWriteTool = defineTool<TodoWriteArgs>({
  ...todoWriteSpec,
  async execute(args, ctx) {
    // Loaded on the first call, so importing the tool loads only its schema.
    const { runTodoWrite } = await import('./todo-run.js');
    return runTodoWrite(args.todos, ctx);
  },
});
