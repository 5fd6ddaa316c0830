import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';
import { packageRoot } from '../util/package-root.js';
import { createProjectGate, type GateEntry, type ProjectGate } from './project-gate.js';
import { isInsideWorkspace } from '../tools/builtin/workspace-path.js';
import { trustFilePath } from './trust-file-path.js';
import { EMPTY_STORE, readTrustStore, updateTrustStore, type TrustedFile } from './trust-store.js';

export interface ProjectTrustOptions {
  /** The project folder (the current folder of the command). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--trust-project`: load everything for this run, record nothing. */
  oneRun?: boolean;
  /** Folders nothing is loaded from, with why (`cadre serve`: its agents' workspace). */
  denied?: ReadonlyArray<{ folder: string; why: string }>;
}

export interface ProjectTrust {
  gate: ProjectGate;
  /** The trust file, when the environment names one. */
  storeFile: string | undefined;
  /** Said once beside any refusal (a trust file that is not read). */
  notes: string[];
}

/**
 * The gate for one process in one project: what the trust file records for
 * the project's real path. A trust file inside the project is never read:
 * whatever an agent can write there cannot vouch for itself.
 */
export async function openProjectTrust(options: ProjectTrustOptions): Promise<ProjectTrust> {
  const root = await realFolder(options.cwd);
  const storeFile = trustFilePath(options.env);
  const notes: string[] = [];
  let store = EMPTY_STORE;
  if (storeFile && (await insideProject(storeFile, root, options.cwd)))
    notes.push(`the trust file ${storeFile} lies inside the project, so it is not read`);
  else if (storeFile) store = await readTrustStore(storeFile);
  const home = options.env.HOME?.trim();
  const shipped = packageRoot();
  const gate = createProjectGate({
    root,
    ...(path.resolve(options.cwd) !== root ? { alias: path.resolve(options.cwd) } : {}),
    trusted: store.projects[root]?.files ?? {},
    ...(options.oneRun ? { oneRun: true } : {}),
    ownFolders: [
      // The user's own tools and agents: the sandbox hides home from agents.
      ...(home ? [path.join(path.resolve(home), '.cadre')] : []),
      ...(shipped ? [path.join(shipped, 'examples')] : []),
    ],
    ...(options.denied ? { denied: options.denied } : {}),
  });
  return { gate, storeFile, notes };
}

/** Records `entries` (their current hashes) as trusted in the project at `root`. */
export async function recordTrust(
  storeFile: string | undefined,
  root: string,
  entries: ReadonlyArray<Pick<GateEntry, 'key' | 'sha256'>>,
  now: Date = new Date(),
): Promise<void> {
  const file = await writableStore(storeFile, root);
  await updateTrustStore(file, (store) => {
    const files: Record<string, TrustedFile> = { ...store.projects[root]?.files };
    for (const entry of entries)
      files[entry.key] = { sha256: entry.sha256, trustedAt: now.toISOString() };
    return { ...store, projects: { ...store.projects, [root]: { files } } };
  });
}

/** Forgets trust in `keys` (all of the project's when undefined); returns the keys forgotten. */
export async function revokeTrust(
  storeFile: string | undefined,
  root: string,
  keys: readonly string[] | undefined,
): Promise<string[]> {
  const file = await writableStore(storeFile, root);
  const removed: string[] = [];
  await updateTrustStore(file, (store) => {
    const files: Record<string, TrustedFile> = { ...store.projects[root]?.files };
    for (const key of keys ?? Object.keys(files))
      if (key in files) {
        delete files[key];
        removed.push(key);
      }
    const projects = { ...store.projects, [root]: { files } };
    if (Object.keys(files).length === 0) delete projects[root];
    return { ...store, projects };
  });
  return removed;
}

/** What the project at `root` has trusted, by key. */
export async function trustedFiles(
  storeFile: string | undefined,
  root: string,
): Promise<Record<string, TrustedFile>> {
  const file = await writableStore(storeFile, root);
  return (await readTrustStore(file)).projects[root]?.files ?? {};
}

export async function realFolder(folder: string): Promise<string> {
  return realpath(folder).catch(() => path.resolve(folder));
}

async function writableStore(storeFile: string | undefined, root: string): Promise<string> {
  if (!storeFile)
    throw new ConfigError(
      'No place to record trust: set HOME (or XDG_CONFIG_HOME, or CADRE_TRUST_FILE).',
    );
  if (await insideProject(storeFile, root, root))
    throw new ConfigError(
      `The trust file ${storeFile} lies inside the project ${root}: anything the project's agents can write cannot vouch for the project. Name one outside it (CADRE_TRUST_FILE).`,
    );
  return storeFile;
}

/** Through symlinks too: the nearest folder of the file that exists, by its real path. */
async function insideProject(file: string, root: string, cwd: string): Promise<boolean> {
  const absolute = path.resolve(file);
  let folder = path.dirname(absolute);
  let real: string | undefined;
  while (real === undefined) {
    real = await realpath(folder).catch(() => undefined);
    if (real === undefined) {
      const parent = path.dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
  }
  const candidates = [
    absolute,
    ...(real ? [path.join(real, path.relative(folder, absolute))] : []),
  ];
  return candidates.some(
    (c) => isInsideWorkspace(root, c) || isInsideWorkspace(path.resolve(cwd), c),
  );
}
