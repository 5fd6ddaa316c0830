// Test-only helpers: temp workspaces and a ToolContext for calling tools directly.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ToolContext } from '../../types.js';

export interface TestWorkspace {
  /** The workspace root (real path). */
  root: string;
  /** A sibling directory outside the workspace, for escape tests. */
  outside: string;
  ctx: ToolContext;
  /** Writes `files` (relative path → content) under the workspace, creating directories. */
  write(files: Record<string, string | Uint8Array>): Promise<void>;
  cleanup(): Promise<void>;
}

export async function makeWorkspace(signal?: AbortSignal): Promise<TestWorkspace> {
  // realpath: on macOS the temp dir sits behind a /var → /private/var symlink.
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cadre-builtin-')));
  const root = path.join(base, 'workspace');
  const outside = path.join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  return {
    root,
    outside,
    ctx: contextFor(root, signal ?? new AbortController().signal),
    async write(files) {
      for (const [rel, content] of Object.entries(files)) {
        const target = path.join(root, rel);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, content);
      }
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

export function contextFor(workspace: string, signal: AbortSignal): ToolContext {
  return {
    runId: 'run-test',
    execution: { executionId: 'exec-test', depth: 0, path: ['test'] },
    signal,
    workspace,
    emit: () => undefined,
  };
}
