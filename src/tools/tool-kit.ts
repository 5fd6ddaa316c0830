/**
 * What a tool file in `tools/` gets from `import … from 'cadre'` when the
 * project has no cadre installed of its own: the tool-writing API, small
 * enough to load in milliseconds.
 */
export { defineTool, type Tool, type ToolContext } from './types.js';
export { ToolExecutionError } from '../errors/cadre-error.js';
