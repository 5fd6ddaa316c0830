import {
  formatSeconds,
  SHELL_DEFAULTS,
  shellSpec,
  type ShellArgs,
} from '../builtin/builtin-tool-specs.js';
import { defineTool, type Tool } from '../types.js';
import { checkCommand, parseCommandPattern } from './command-patterns.js';
import type { Sandbox } from '../sandbox/sandbox.js';

export type { ShellArgs };

export interface ShellResult {
  /** Null when a signal ended the command. */
  exit_code: number | null;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  duration_ms: number;
  /** Present when output was cut to fit. */
  truncated?: true;
  /** The signal that ended the command, when one did. */
  signal?: string;
  /** Why the result looks unusual (a timeout), for the model. */
  note?: string;
}

export interface ShellToolOptions {
  /** Where the command's environment is drawn from, read at each call; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  defaultTimeoutMs?: number;
  maxTimeoutMs?: number;
  maxOutputChars?: number;
  /** Time between SIGTERM and SIGKILL when a command is stopped. */
  killGraceMs?: number;
  /** What confines each command; default: bubblewrap per `CADRE_SANDBOX*` in `env`. */
  sandbox?: Sandbox;
}

/**
 * The `shell` tool: runs one command with /bin/sh in the workspace, with a
 * clean environment, a timeout, and capped output. Definitions narrow it with
 * patterns (`git status:*`); a call outside them is refused before approval.
 */
export function createShellTool(options: ShellToolOptions = {}): Tool {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? SHELL_DEFAULTS.defaultTimeoutMs;
  const maxTimeoutMs = options.maxTimeoutMs ?? SHELL_DEFAULTS.maxTimeoutMs;
  const maxOutputChars = options.maxOutputChars ?? SHELL_DEFAULTS.maxOutputChars;
  // Made on first use, so importing the default tool reads no environment, starts nothing,
  // and loads neither the sandbox nor the process code.
  let sandbox = options.sandbox;
  const confinement = async (): Promise<Sandbox> => {
    if (sandbox) return sandbox;
    const [{ createSandbox }, { sandboxSettingsFromEnv }] = await Promise.all([
      import('../sandbox/sandbox.js'),
      import('../sandbox/sandbox-settings.js'),
    ]);
    const source = options.env ?? process.env;
    sandbox ??= createSandbox(sandboxSettingsFromEnv(source), source);
    return sandbox;
  };

  return defineTool<ShellArgs>({
    ...shellSpec({ defaultTimeoutMs, maxTimeoutMs, maxOutputChars }),
    outsidePatterns(args, patterns) {
      const check = checkCommand(
        args.command,
        patterns.map((pattern) => parseCommandPattern(pattern, 'cadre')),
      );
      return check.ok ? undefined : check.reason;
    },
    async approvalFloor(signal) {
      const status = await (await confinement()).status(signal);
      return status.kind === 'none'
        ? `No sandbox confines shell commands here (${status.reason}), so every command needs a person's approval.`
        : undefined;
    },
    async execute(args, ctx): Promise<ShellResult> {
      const [
        { throwIfAborted },
        { runCommand },
        { buildShellEnvironment, parsePassEnv, PASS_ENV_VARIABLE },
      ] = await Promise.all([
        import('../builtin/abort.js'),
        import('./run-command.js'),
        import('./shell-environment.js'),
      ]);
      throwIfAborted(ctx.signal);
      const source = options.env ?? process.env;
      const env = buildShellEnvironment(source, parsePassEnv(source[PASS_ENV_VARIABLE]));
      const box = await confinement();
      const status = await box.status(ctx.signal);
      // Without a sandbox the gate made a person approve this very call (approvalFloor).
      const launcher =
        status.kind === 'bwrap'
          ? box.launcher(status, {
              workspace: ctx.workspace,
              env,
              protectedPaths: ctx.protectedPaths ?? [],
            })
          : undefined;
      const timeoutMs = Math.min(
        args.timeout_seconds === undefined ? defaultTimeoutMs : args.timeout_seconds * 1000,
        maxTimeoutMs,
      );
      let setAside: string[] = [];
      const run = await runCommand(args.command, {
        cwd: ctx.workspace,
        env,
        timeoutMs,
        ...(launcher ? { launcher } : {}),
        maxOutputChars,
        signal: ctx.signal,
        ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      }).finally(async () => {
        setAside = (await launcher?.release?.())?.setAside ?? [];
      });
      const notes = [
        ...(run.timedOut
          ? [
              `The command was stopped after ${formatSeconds(timeoutMs)} (timeout); the output ` +
                'is what it printed until then.',
            ]
          : []),
        ...(setAside.length > 0 ? [setAsideNote(setAside)] : []),
      ];
      return {
        exit_code: run.exitCode,
        stdout: run.stdout,
        stderr: run.stderr,
        timed_out: run.timedOut,
        duration_ms: run.durationMs,
        ...(run.truncated ? { truncated: true as const } : {}),
        ...(run.signal === null ? {} : { signal: run.signal }),
        ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
      };
    },
  });
}

/** Why a repository the command made is no longer one: the model should know its work moved. */
function setAsideNote(folders: readonly string[]): string {
  const where = folders.map((folder) => `${folder}/.git`).join(', ');
  return (
    `The git repository this command created (${where}) was renamed to .git.untrusted: agents ` +
    "may not create repositories, because git on the host obeys a repository's config. The " +
    'files in the folder are kept.'
  );
}

/** The default shell tool; it reads `process.env` at each call, not at import. */
export const shellTool = createShellTool();
