// Empties dist/ before a build: files of modules since moved or removed (test helpers above
// all) would otherwise stay in dist/ and be packed into the tarball.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
