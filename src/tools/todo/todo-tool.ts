import { defineTool } from '../types.js';
import { TODO_STATUSES } from '../../contracts/todo-item.js';
import type { WrittenTodo } from './todo-list.js';

export const TODO_WRITE_TOOL = 'todo_write';

export interface TodoWriteArgs {
  todos: WrittenTodo[];
}

const MAX_ITEMS = 100;
const MAX_TEXT = 500;

/**
 * Claude Code's TodoWrite and Gemini CLI's write_todos: the model keeps its
 * plan as a list it rewrites whole on every call. Nothing outside the run
 * changes; the list goes out as a `todos_updated` event, so the latest call's
 * list is the plan of the run (per execution).
 */
export const todoWriteTool = defineTool<TodoWriteArgs>({
  name: TODO_WRITE_TOOL,
  description:
    'Keep your plan for this task as a todo list, shown to the person following the run. Each ' +
    'call replaces the whole list: send every item every time. Use it for work of three or more ' +
    'steps; mark an item in_progress before you start it (one at a time) and completed as soon ' +
    'as it is done. It changes nothing outside the run.',
  inputSchema: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        maxItems: MAX_ITEMS,
        description: 'The whole list, in order; it replaces the previous one ([] clears it).',
        items: {
          // Other fields (the older TodoWrite's `priority`) are ignored, not refused.
          type: 'object',
          properties: {
            content: {
              type: 'string',
              maxLength: MAX_TEXT,
              description: 'What to do, in the imperative ("Run the tests").',
            },
            description: {
              type: 'string',
              maxLength: MAX_TEXT,
              description: 'The same as content (Gemini CLI spelling); give one of the two.',
            },
            status: {
              type: 'string',
              enum: [...TODO_STATUSES],
              description: 'Default pending.',
            },
            id: { type: 'string', description: 'A stable id for the item (optional).' },
            activeForm: {
              type: 'string',
              maxLength: MAX_TEXT,
              description: 'The item while it runs ("Running the tests"), optional.',
            },
          },
        },
      },
    },
    required: ['todos'],
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `Update the plan (${args.todos.length} items)`,
  async execute(args, ctx) {
    // Loaded on the first call, so importing the tool loads only its schema.
    const { runTodoWrite } = await import('./todo-run.js');
    return runTodoWrite(args.todos, ctx);
  },
});
