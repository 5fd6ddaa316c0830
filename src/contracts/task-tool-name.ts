/** The built-in delegation tool's name; alone in its module so the event tree can read it in the browser. */
export const TASK_TOOL = 'task';
