import {
  CancelledError,
  CadreError,
  ToolExecutionError,
  isAbortError,
} from '../../errors/index.js';

/**
 * Turns a Node fs failure into a taxonomy error whose message names the path
 * relative to the workspace, never the absolute one or a stack trace.
 */
export function toToolError(error: unknown, displayPath: string): CadreError {
  if (error instanceof CadreError) return error;
  if (isAbortError(error))
    return new CancelledError('The tool call was cancelled.', { cause: error });
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new ToolExecutionError(describe(code, displayPath), { cause: error, details: { code } });
}

function describe(code: string | undefined, path: string): string {
  switch (code) {
    case 'ENOENT':
      return `No such file or directory: ${path}`;
    case 'EISDIR':
      return `${path} is a directory, not a file.`;
    case 'ENOTDIR':
      return `A component of ${path} is not a directory.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: ${path}`;
    case 'ELOOP':
      return `Too many levels of symbolic links: ${path}`;
    default:
      return `Could not access ${path}${code ? ` (${code})` : ''}.`;
  }
}
