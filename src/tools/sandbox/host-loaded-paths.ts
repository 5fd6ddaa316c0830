import path from 'node:path';

/** Whether an entry is expected to be a folder or a file (what its placeholder looks like). */
export type EntryKind = 'directory' | 'file';

/** A workspace entry the host reads, loads or obeys later, outside any sandbox. */
export interface HostLoadedEntry {
  /** Relative to the workspace root, forward slashes. */
  name: string;
  kind: EntryKind;
  /** Why an agent may not change it, for the message a file tool gives. */
  why: string;
}

const CODE = 'Cadre imports code from it';
const SETTINGS = 'Cadre reads its settings and MCP server commands';
const POLICY = 'it is the policy that decides what agents may do';

/**
 * What an agent must never write, however it asks: code the host imports
 * (tool modules, agent modules), settings that start programs (MCP servers),
 * the policy, and git's folder (its config and hooks run programs on the
 * host's next `git status`). Read-only inside the sandbox whether or not
 * they exist when a command starts; the file tools refuse to write them.
 */
const HOST_LOADED_ENTRIES: readonly HostLoadedEntry[] = [
  { name: 'tools', kind: 'directory', why: CODE },
  { name: 'agents', kind: 'directory', why: CODE },
  { name: '.mcp.json', kind: 'file', why: SETTINGS },
  { name: '.claude', kind: 'directory', why: SETTINGS },
  { name: '.gemini', kind: 'directory', why: SETTINGS },
  { name: 'policy.yaml', kind: 'file', why: POLICY },
  { name: 'policy.yml', kind: 'file', why: POLICY },
  { name: '.git', kind: 'directory', why: 'git runs programs its config and hooks name' },
];

/** Inside `.git`, what stays read-only even where agents may commit. */
export const GIT_CODE_ENTRIES = ['config', 'config.worktree', 'hooks', 'info'] as const;

/** The entries above as absolute paths, plus the policy file `CADRE_POLICY` names inside the workspace. */
export function hostLoadedPaths(
  workspace: string,
  env: Readonly<Record<string, string | undefined>>,
): Array<{ path: string; kind: EntryKind }> {
  const entries = HOST_LOADED_ENTRIES.map((entry) => ({
    path: path.join(workspace, entry.name),
    kind: entry.kind,
  }));
  const policy = env.CADRE_POLICY?.trim();
  if (policy) entries.push({ path: path.resolve(workspace, policy), kind: 'file' });
  return entries;
}

/**
 * The entry a workspace path falls under, if any: `tools/x.tool.mjs` →
 * tools. Cadre's own state folder (`.cadre`) is not listed: it is hidden, not read-only.
 */
export function hostLoadedEntryOf(
  workspace: string,
  absolute: string,
): HostLoadedEntry | undefined {
  const rel = path.relative(workspace, absolute);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const first = rel.split(path.sep)[0];
  return HOST_LOADED_ENTRIES.find((entry) => entry.name === first);
}
