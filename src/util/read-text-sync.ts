import { createRequire } from 'node:module';
import type * as Fs from 'node:fs';

// Required, not imported: `import 'node:fs'` builds its ESM namespace, which reads every
// lazy export (fs/promises, the stream classes), about 3 ms of start-up for one sync read.
const load = createRequire(import.meta.url);

/** `fs.readFileSync(file, 'utf8')`, for the few sync reads the package entry's modules do. */
export const readTextSync = (file: string): string =>
  (load('node:fs') as typeof Fs).readFileSync(file, 'utf8');
