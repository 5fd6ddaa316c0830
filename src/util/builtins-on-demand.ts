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

/**
 * A built-in by name: process.getBuiltinModule (Node 22.3+) is a lookup,
 * where a require resolves through the module loader (about 0.4 µs, and a
 * run asks for its id every time).
 */
const builtin = <T>(id: string): T =>
  ((process.getBuiltinModule as ((id: string) => unknown) | undefined)?.(id) ?? load(id)) as T;

export const nodeCrypto = (): typeof Crypto => builtin<typeof Crypto>('node:crypto');

export const randomUUID = (): string => nodeCrypto().randomUUID();

/** `fs.readFileSync(file, 'utf8')`. */
export const readTextSync = (file: string): string =>
  builtin<typeof Fs>('node:fs').readFileSync(file, 'utf8');
