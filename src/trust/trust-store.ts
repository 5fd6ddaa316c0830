import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';

/** One trusted file: the hash of the content a person trusted. */
export interface TrustedFile {
  sha256: string;
  trustedAt: string;
}

/** Per project (its real path): file (relative to it, or absolute outside it) → trusted content. */
export interface TrustStore {
  version: 1;
  projects: Record<string, { files: Record<string, TrustedFile> }>;
}

export const EMPTY_STORE: TrustStore = { version: 1, projects: {} };

/** The trust file; none yet is an empty store, a file that is not one is a setup error. */
export async function readTrustStore(file: string): Promise<TrustStore> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_STORE;
    throw new ConfigError(`Trust file not readable: ${file}`);
  }
  return parseTrustStore(text, file);
}

function parseTrustStore(text: string, file: string): TrustStore {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigError(`${file}: not valid JSON; fix or remove it (cadre trust rewrites it)`);
  }
  const store: TrustStore = { version: 1, projects: {} };
  const projects = isRecord(data) && isRecord(data.projects) ? data.projects : undefined;
  if (!projects) throw new ConfigError(`${file}: expected {"version": 1, "projects": {...}}`);
  for (const [root, entry] of Object.entries(projects)) {
    const files: Record<string, TrustedFile> = {};
    const listed = isRecord(entry) && isRecord(entry.files) ? entry.files : {};
    for (const [name, trusted] of Object.entries(listed))
      if (isRecord(trusted) && typeof trusted.sha256 === 'string')
        files[name] = {
          sha256: trusted.sha256,
          trustedAt: typeof trusted.trustedAt === 'string' ? trusted.trustedAt : '',
        };
    store.projects[root] = { files };
  }
  return store;
}

/**
 * Read-modify-write of the trust file under a lock (`<file>.lock`), so two
 * processes trusting at once both keep their entries; the new content is
 * written beside it and renamed over it, so a reader never sees half a file.
 */
export async function updateTrustStore(
  file: string,
  change: (store: TrustStore) => TrustStore,
): Promise<TrustStore> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // Loaded on first use: on import it hooks process exit to remove held locks.
  const { lock } = await import('proper-lockfile');
  const release = await lock(file, {
    realpath: false,
    stale: 10_000,
    retries: { retries: 100, minTimeout: 20, maxTimeout: 200, randomize: true },
    onCompromised: () => undefined,
  });
  try {
    const next = change(await readTrustStore(file));
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return next;
  } finally {
    await release().catch(() => undefined);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
