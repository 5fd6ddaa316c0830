import { createRequire } from 'node:module';
import type * as Crypto from 'node:crypto';
import type * as Fs from 'node:fs';

/*
 * Node built-ins the package entry's modules need only when they are used,
 * required then rather than imported: node:crypto takes about 4 ms to load
 * (a run pays it once, for its first id), and `import 'node:fs'` builds its
 * ESM namespace, which reads every lazy export (fs/promises, the stream
 * classes), about 3 ms for one sync read.
 */
const load = createRequire(import.meta.url);

export const nodeCrypto = (): typeof Crypto => load('node:crypto') as typeof Crypto;

export const randomUUID = (): string => nodeCrypto().randomUUID();

/** `fs.readFileSync(file, 'utf8')`. */
export const readTextSync = (file: string): string =>
  (load('node:fs') as typeof Fs).readFileSync(file, 'utf8');
