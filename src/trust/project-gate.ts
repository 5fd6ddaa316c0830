import path from 'node:path';
import type { FileGate, GatedKind } from '../contracts/file-gate.js';
import { sha256File } from './file-hash.js';
import { isInsideWorkspace } from '../tools/builtin/workspace-path.js';
import type { TrustedFile } from './trust-store.js';

/** A file's standing: its content is the one trusted, it was never trusted, or it changed since. */
export type TrustStatus = 'trusted' | 'new' | 'changed';

/** One file the host was about to load, and what the gate said. */
export interface GateEntry {
  /** How trust names it: relative to the project, or absolute outside it. */
  key: string;
  /** Absolute. */
  file: string;
  kind: GatedKind;
  sha256: string;
  status: TrustStatus;
  /** Whether it was let through (trusted, or `--trust-project` for this run). */
  allowed: boolean;
  /** What loading it does (the MCP commands an agent file starts). */
  detail: readonly string[];
  /** Why it is never loaded here, whatever its trust (inside the server's agents' workspace). */
  denied?: string;
}

export interface ProjectGate extends FileGate {
  /** The project's real path: the key its trust is recorded under. */
  readonly root: string;
  /** Every file asked about, in the order first asked. */
  entries(): GateEntry[];
  /** The files left out. */
  refused(): GateEntry[];
}

export interface GateOptions {
  /** The project's real path. */
  root: string;
  /** The same folder as the commands name it (a path through a symlink), if it differs. */
  alias?: string;
  /** What was trusted in this project. */
  trusted: Readonly<Record<string, TrustedFile>>;
  /** `--trust-project`: everything loads for this run; nothing is recorded. */
  oneRun?: boolean;
  /** The user's own folders and the package's: always loaded, never listed. */
  ownFolders?: readonly string[];
  /** Folders nothing is loaded from, trusted or not, with the reason said. */
  denied?: ReadonlyArray<{ folder: string; why: string }>;
}

/**
 * The workspace-trust decision for one process: a file loads only when the
 * hash of its content is the one recorded as trusted for this project
 * (or `--trust-project` says so for this run). Each file is hashed once.
 */
export function createProjectGate(options: GateOptions): ProjectGate {
  const answers = new Map<string, Promise<GateEntry | undefined>>();
  const order: string[] = [];
  const settled = new Map<string, GateEntry>();
  const keyOf = (file: string): string => {
    for (const root of [options.root, options.alias])
      if (root && isInsideWorkspace(root, file)) return path.relative(root, file);
    return file;
  };
  const decide = async (
    file: string,
    kind: GatedKind,
    detail: readonly string[],
  ): Promise<GateEntry | undefined> => {
    const key = keyOf(file);
    const inProject = key !== file;
    const denied = options.denied?.find((rule) => isInsideWorkspace(rule.folder, file));
    // Outside the project, configuration and code modules were named by a person, and the
    // user's own folders are theirs; an agent file that starts commands (or sends this
    // machine's secrets) is gated wherever it lies (a downloaded one included). Inside the project everything is gated.
    const own = options.ownFolders?.some((folder) => isInsideWorkspace(folder, file)) ?? false;
    const sendsSecrets = kind === 'MCP commands' || kind === 'remote agent auth';
    if (!denied && !inProject && (own || !sendsSecrets)) return undefined;
    const sha256 = await sha256File(file);
    // No file, nothing to load: the loader says it is missing.
    if (sha256 === undefined) return undefined;
    const recorded = options.trusted[key];
    const status: TrustStatus =
      recorded === undefined ? 'new' : recorded.sha256 === sha256 ? 'trusted' : 'changed';
    return {
      key,
      file,
      kind,
      sha256,
      status,
      allowed: !denied && (status === 'trusted' || options.oneRun === true),
      detail,
      ...(denied ? { denied: denied.why } : {}),
    };
  };
  return {
    root: options.root,
    async allows(file, kind, detail = []) {
      const absolute = path.resolve(file);
      const id = `${kind}\u0000${absolute}`;
      let answer = answers.get(id);
      if (!answer) {
        answer = decide(absolute, kind, detail);
        answers.set(id, answer);
        order.push(id);
      }
      const entry = await answer;
      if (entry) settled.set(id, entry);
      return entry?.allowed ?? true;
    },
    why(file) {
      const absolute = path.resolve(file);
      const entry = [...settled.values()].find((e) => e.file === absolute && !e.allowed);
      return entry && refusalReason(entry);
    },
    entries: () => order.flatMap((id) => settled.get(id) ?? []),
    refused: () => order.flatMap((id) => settled.get(id) ?? []).filter((entry) => !entry.allowed),
  };
}

/** Why an entry was left out, in a few words. */
export function refusalReason(entry: GateEntry): string {
  if (entry.denied) return entry.denied;
  return entry.status === 'changed' ? 'changed since trusted' : 'not trusted yet';
}
