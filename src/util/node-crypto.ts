import { createRequire } from 'node:module';
import type * as Crypto from 'node:crypto';

// Required on first use, not imported: node:crypto takes about 4 ms to load, which
// importing the package need not pay (a run pays it once, for its first id).
const load = createRequire(import.meta.url);

export const nodeCrypto = (): typeof Crypto => load('node:crypto') as typeof Crypto;

export const randomUUID = (): string => nodeCrypto().randomUUID();
