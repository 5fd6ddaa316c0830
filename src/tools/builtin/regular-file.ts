import { constants, type Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { ToolExecutionError } from '../../errors/index.js';
import { throwIfAborted } from './abort.js';

/*
 * File tools open only regular files with one link. A FIFO blocks a read or
 * a write forever (and a thread of libuv's small pool with it), a device such
 * as /dev/zero never ends, and a hard link in the workspace may be the very
 * file outside it that a symlink check would have refused. Every open is
 * non-blocking and never follows a final symlink, and the handle is checked
 * again after opening, so a swap between the check and the open is caught.
 */

const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
const WRITE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOFOLLOW;
const CHUNK_BYTES = 1024 * 1024;

/** Refuses anything but a regular file with a single link, naming what it is. */
export function checkRegularFile(info: Stats, display: string): void {
  if (info.isDirectory())
    throw new ToolExecutionError(`${display} is a directory; use ls to list it.`);
  if (!info.isFile()) {
    throw new ToolExecutionError(
      `${display} is ${specialKind(info)}, not a regular file; the file tools only open regular files.`,
    );
  }
  if (info.nlink > 1) {
    throw new ToolExecutionError(
      `${display} has ${info.nlink} hard links; one of them may lie outside the workspace, so the file tools do not open it.`,
    );
  }
}

/**
 * Reads a whole regular file of at most `maxBytes`, in chunks, checking
 * `signal` between them. Larger files are refused before any byte is read.
 */
export async function readRegularFile(
  file: string,
  display: string,
  maxBytes: number,
  signal: AbortSignal,
  tooLarge: (size: number) => string,
): Promise<Buffer> {
  checkRegularFile(await lstat(file), display);
  const handle = await open(file, READ_FLAGS);
  try {
    const info = await handle.stat();
    checkRegularFile(info, display);
    if (info.size > maxBytes) throw new ToolExecutionError(tooLarge(info.size));
    return await readAll(handle, info.size, signal);
  } finally {
    await handle.close();
  }
}

async function readAll(handle: FileHandle, size: number, signal: AbortSignal): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  let filled = 0;
  while (filled < size) {
    throwIfAborted(signal);
    const { bytesRead } = await handle.read(
      buffer,
      filled,
      Math.min(CHUNK_BYTES, size - filled),
      filled,
    );
    // The file shrank since it was measured: what is there is the file.
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === size ? buffer : buffer.subarray(0, filled);
}

/**
 * Writes `content` to a regular file (created when missing). Returns whether
 * the file existed. An existing special file or hard link is refused before
 * anything is truncated.
 */
export async function writeRegularFile(
  file: string,
  display: string,
  content: string,
  signal: AbortSignal,
): Promise<boolean> {
  const before = await lstatOrMissing(file);
  if (before) checkRegularFile(before, display);
  throwIfAborted(signal);
  const handle = await open(file, WRITE_FLAGS, 0o644);
  try {
    const info = await handle.stat();
    checkRegularFile(info, display);
    if (before && (before.ino !== info.ino || before.dev !== info.dev)) {
      throw new ToolExecutionError(
        `${display} was replaced while it was being written; try again.`,
      );
    }
    await handle.truncate(0);
    await handle.writeFile(content, { encoding: 'utf8', signal });
  } finally {
    await handle.close();
  }
  return before !== undefined;
}

async function lstatOrMissing(file: string): Promise<Stats | undefined> {
  try {
    return await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function specialKind(info: Stats): string {
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'a special file';
}
