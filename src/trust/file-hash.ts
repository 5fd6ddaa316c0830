import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** SHA-256 of a file's bytes, hex; undefined when there is no such file. */
export async function sha256File(file: string): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return createHash('sha256').update(bytes).digest('hex');
}
