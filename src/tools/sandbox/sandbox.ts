import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { bwrapArguments, isWithin, type PathKind } from './sandbox-layout.js';
import { hiddenPaths, pathFoldersUnder } from './hidden-paths.js';
import { listeningSocketPaths } from './host-sockets.js';
import { createPlaceholderLeases } from './placeholder-leases.js';
import { filterArchFor, setIdFilter } from './seccomp-filter.js';
import { setAsideNewRepositories, workspaceGuards } from './workspace-guards.js';
import type { SandboxSettings } from './sandbox-settings.js';

export type SandboxStatus = { kind: 'bwrap'; program: string } | { kind: 'none'; reason: string };

/** The program and arguments that run `/bin/sh -c command` confined. */
export interface Launcher {
  file: string;
  args: readonly string[];
  /** A seccomp program the launcher reads from file descriptor 3. */
  seccomp?: Uint8Array;
  /**
   * Called once the command has ended: removes the placeholders made for it,
   * and sets aside the git repositories it created (their folders are named).
   */
  release?: () => Promise<{ setAside: string[] }>;
}

/** bubblewrap reads the seccomp program from this descriptor (the child's fourth stdio entry). */
const SECCOMP_FD = 3;

/** Where a command runs and what it must not reach. */
export interface SandboxTarget {
  workspace: string;
  /** The command's own environment (PATH decides which home folders' programs stay visible). */
  env: Readonly<Record<string, string>>;
  /** Cadre's state outside `.cadre/` (the database, keys, token files). */
  protectedPaths: readonly string[];
}

/**
 * One sandbox per tool: it finds out once whether bubblewrap can start here
 * (a container without user namespaces, macOS, or `CADRE_SANDBOX=off` say
 * no), and wraps each command so that the workspace is the only writable
 * place, Cadre's state and home folders are empty, the network is closed
 * unless opened, and every process dies with the command (PID namespace).
 */
export interface Sandbox {
  status(signal: AbortSignal): Promise<SandboxStatus>;
  launcher(status: Extract<SandboxStatus, { kind: 'bwrap' }>, target: SandboxTarget): Launcher;
}

export function createSandbox(
  settings: SandboxSettings,
  env: Readonly<Record<string, string | undefined>>,
): Sandbox {
  let probed: Promise<SandboxStatus> | undefined;
  const leases = createPlaceholderLeases();
  const arch = filterArchFor(process.arch);
  const seccomp = arch === undefined ? undefined : setIdFilter(arch);
  return {
    status(signal) {
      probed ??= probe(settings, env, signal);
      return probed;
    },
    launcher(status, target) {
      const { workspace } = target;
      const hidden = [
        ...hiddenPaths({
          workspace,
          env,
          protectedPaths: target.protectedPaths,
          extra: settings.hide,
          homeEntries: listNames,
        }),
        ...listeningSocketPaths()
          .filter((socket) => !isWithin(workspace, socket))
          .map((socket) => ({ path: socket })),
      ];
      const never = [path.join(workspace, '.cadre'), ...target.protectedPaths];
      const reexposed = pathFoldersUnder(
        hidden,
        target.env.PATH,
        settings.read,
        workspace,
        env,
      ).filter((folder) => !never.some((p) => folder === p || isWithin(p, folder)));
      const { pinned, readOnly, repositories } = workspaceGuards(
        workspace,
        env,
        settings.git,
        kindOf,
      );
      // A placeholder another command of this process still mounts is not the project's own file.
      const plan = bwrapArguments(
        {
          workspace,
          hidden,
          reexposed,
          pinned,
          readOnly,
          network: settings.network,
          ...(seccomp ? { seccompFd: SECCOMP_FD } : {}),
        },
        (p) => (leases.held(p) ? 'missing' : kindOf(p)),
      );
      const giveBack = leases.take(plan.placeholders);
      return {
        file: status.program,
        args: [...plan.args, '--', '/bin/sh', '-c'],
        ...(seccomp ? { seccomp } : {}),
        async release() {
          await giveBack();
          return { setAside: await setAsideNewRepositories(workspace, repositories, kindOf) };
        },
      };
    },
  };
}

function listNames(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** One line for start-up output: what confines commands here, or that nothing does. */
export function describeSandbox(status: SandboxStatus, settings: SandboxSettings): string {
  switch (status.kind) {
    case 'bwrap':
      return `shell commands run in a bubblewrap sandbox (workspace writable, network ${settings.network === 'open' ? 'open' : 'closed'})`;
    case 'none':
      return `no sandbox for shell commands (${status.reason}): every shell call asks a person`;
    default:
      return status satisfies never;
  }
}

const PROBE_TIMEOUT_MS = 5_000;

async function probe(
  settings: SandboxSettings,
  env: Readonly<Record<string, string | undefined>>,
  signal: AbortSignal,
): Promise<SandboxStatus> {
  if (settings.mode === 'off') return { kind: 'none', reason: 'turned off by CADRE_SANDBOX=off' };
  if (process.platform !== 'linux')
    return { kind: 'none', reason: `no sandbox support on ${process.platform} yet` };
  const program = findProgram('bwrap', env.PATH);
  if (program === undefined) return { kind: 'none', reason: 'bubblewrap (bwrap) is not installed' };
  const started = await tryStart(program, signal);
  return started === undefined ? { kind: 'bwrap', program } : { kind: 'none', reason: started };
}

/** Runs `true` in the same kind of sandbox; the reason it failed, or undefined. */
function tryStart(program: string, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all'];
    const child = spawn(program, [...args, '--cap-drop', 'ALL', '--', '/bin/true'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      signal,
      timeout: PROBE_TIMEOUT_MS,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => resolve(`bwrap could not start: ${error.message}`));
    child.on('close', (code) =>
      resolve(code === 0 ? undefined : `bwrap could not start: ${stderr.trim() || `exit ${code}`}`),
    );
  });
}

function findProgram(name: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? '/usr/bin:/bin').split(':')) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (kindOf(candidate) === 'file') return candidate;
  }
  return undefined;
}

function kindOf(target: string): PathKind {
  try {
    const info = statSync(target);
    return info.isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}
