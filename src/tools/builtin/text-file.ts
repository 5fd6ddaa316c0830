import { ToolExecutionError } from '../../errors/index.js';
import { looksBinary } from './binary.js';
import { toToolError } from './fs-error.js';
import { formatCount } from './output-cap.js';
import { readRegularFile } from './regular-file.js';

/** Larger files are refused outright rather than loaded whole into memory. */
const MAX_TEXT_FILE_BYTES = 10 * 1024 * 1024;

/**
 * Reads a file the tools treat as UTF-8 text, refusing directories, huge files
 * and binaries with messages that tell the model what to do instead.
 */
export async function readTextFile(
  file: string,
  display: string,
  signal: AbortSignal,
): Promise<string> {
  let buffer: Buffer;
  try {
    buffer = await readRegularFile(
      file,
      display,
      MAX_TEXT_FILE_BYTES,
      signal,
      (size) =>
        `${display} is ${formatCount(size)} bytes, more than the file tools handle ` +
        `(${formatCount(MAX_TEXT_FILE_BYTES)}); use grep to find the part you need.`,
    );
  } catch (error) {
    throw toToolError(error, display);
  }
  if (looksBinary(buffer)) {
    throw new ToolExecutionError(
      `${display} looks like a binary file (it contains NUL bytes); only text files can be read or edited.`,
    );
  }
  return buffer.toString('utf8');
}

/** Lines of a text; a trailing newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
