import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError } from '../../errors/index.js';
import { throwIfAborted } from '../builtin/abort.js';
import { checkRegularFile, readRegularFile } from '../builtin/regular-file.js';
import { withFileLock } from './file-lock.js';
import { calendarText, hasUid, insertEvent } from './icalendar.js';

/**
 * Adds one VEVENT to an iCalendar file: created with PRODID/VERSION when
 * missing, otherwise the event goes inside the existing VCALENDAR. Written
 * to a temp file and renamed, so a reader (a subscribed calendar app) never
 * sees half a file. An event whose UID is already there is not added twice.
 * Like the file tools, it opens only a regular file with one link, never
 * blocking: a FIFO, device, socket or symlink at the calendar's path (or a
 * special file where its lock goes) is refused at once, before any waiting.
 */
export async function addEventToFile(
  file: string,
  display: string,
  uid: string,
  vevent: readonly string[],
  signal: AbortSignal,
): Promise<{ created: boolean }> {
  await checkLockPath(`${file}.lock`, `${display}.lock`);
  await checkPlainFile(file, display);
  return withFileLock(file, signal, async () => {
    const found = await readExisting(file, display, signal);
    const existing = found?.text;
    if (existing !== undefined && hasUid(existing, uid)) return { created: false };
    const next = existing === undefined ? calendarText(vevent) : insertEvent(existing, vevent);
    if (next === undefined) {
      throw new ToolExecutionError(
        `${display} is not an iCalendar file (no BEGIN:VCALENDAR … END:VCALENDAR); refusing to change it.`,
      );
    }
    throwIfAborted(signal);
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
    try {
      // Keep the existing file's permissions: the rename replaces the inode.
      const mode = found === undefined ? 0o644 : found.mode & 0o777;
      await writeFile(temp, next, { encoding: 'utf8', flag: 'wx', mode });
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    return { created: true };
  });
}

/** The largest calendar file read back (a year of busy days is well under 1 MB). */
const MAX_CALENDAR_BYTES = 16 * 1024 * 1024;

async function readExisting(
  file: string,
  display: string,
  signal: AbortSignal,
): Promise<{ text: string; mode: number } | undefined> {
  const before = await lstatOrMissing(file);
  if (before === undefined) return undefined;
  checkRegularFile(before, display);
  const bytes = await readRegularFile(
    file,
    display,
    MAX_CALENDAR_BYTES,
    signal,
    (size) =>
      `${display} is ${size} bytes, more than a calendar file may be; refusing to change it.`,
  );
  return { text: bytes.toString('utf8'), mode: before.mode };
}

/** Refuses at once what no calendar can be (a FIFO would hang the read). */
async function checkPlainFile(file: string, display: string): Promise<void> {
  const info = await lstatOrMissing(file);
  if (info !== undefined) checkRegularFile(info, display);
}

/** The lock is a folder (an old Cadre's was a plain file); anything else would only wait. */
async function checkLockPath(lock: string, display: string): Promise<void> {
  const info = await lstatOrMissing(lock);
  if (info === undefined || info.isDirectory() || info.isFile()) return;
  throw new ToolExecutionError(
    `${display} is not a lock Cadre made (${info.isSymbolicLink() ? 'a symbolic link' : 'a special file'}); remove it to use the calendar.`,
  );
}

async function lstatOrMissing(file: string): Promise<Stats | undefined> {
  try {
    return await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
