import { randomUUID } from 'node:crypto';
import { readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ToolExecutionError } from '../../errors/index.js';
import { throwIfAborted } from '../builtin/abort.js';
import { withFileLock } from './file-lock.js';
import { calendarText, hasUid, insertEvent } from './icalendar.js';

/**
 * Adds one VEVENT to an iCalendar file: created with PRODID/VERSION when
 * missing, otherwise the event goes inside the existing VCALENDAR. Written
 * to a temp file and renamed, so a reader (a subscribed calendar app) never
 * sees half a file. An event whose UID is already there is not added twice.
 */
export async function addEventToFile(
  file: string,
  display: string,
  uid: string,
  vevent: readonly string[],
  signal: AbortSignal,
): Promise<{ created: boolean }> {
  return withFileLock(file, signal, async () => {
    const existing = await readExisting(file, signal);
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
      const mode = existing === undefined ? 0o644 : (await stat(file)).mode & 0o777;
      await writeFile(temp, next, { encoding: 'utf8', flag: 'wx', mode });
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    return { created: true };
  });
}

async function readExisting(file: string, signal: AbortSignal): Promise<string | undefined> {
  try {
    return await readFile(file, { encoding: 'utf8', signal });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
