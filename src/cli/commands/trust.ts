import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../errors/cadre-error.js';
import { sha256File } from '../../trust/file-hash.js';
import { refusalReason, type GateEntry, type ProjectGate } from '../../trust/project-gate.js';
import {
  openProjectTrust,
  realFolder,
  recordTrust,
  revokeTrust,
  trustedFiles,
} from '../../trust/project-trust.js';
import { showExactly } from '../../trust/show-exactly.js';
import { isInsideWorkspace } from '../../tools/builtin/workspace-path.js';
import { agentEnvironment } from '../agent-environment.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle } from '../style.js';

export interface TrustCommandOptions {
  /** Show what the project loads and whether each file is trusted. */
  list?: boolean;
  /** Forget trust (in the named files, else all of the project's). */
  revoke?: boolean;
}

/** Where projects keep the policy they name with --policy (`cadre init` writes policy.yaml). */
const POLICY_FILES = ['policy.yaml', 'policy.yml'];

/**
 * `cadre trust [PATH...]`: records, outside the project, the hash of each
 * project file Cadre would load or run (code tools, agent modules, MCP
 * files and commands, settings, policy, prices). With paths, just those.
 */
export async function trustCommand(
  paths: string[],
  options: TrustCommandOptions,
  io: CliIO,
): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  try {
    const root = await realFolder(io.cwd);
    const { storeFile } = await openProjectTrust({ cwd: io.cwd, env: io.env });
    if (options.revoke) {
      const keys = paths.length > 0 ? paths.map((p) => keyOf(root, io.cwd, p)) : undefined;
      const removed = await revokeTrust(storeFile, root, keys);
      for (const key of removed) io.stdout(`revoked ${showExactly(key)}\n`);
      const missing = (keys ?? []).filter((key) => !removed.includes(key));
      for (const key of missing)
        io.stderr(`${style.yellow('warning')} ${showExactly(key)} was not trusted\n`);
      io.stdout(`${removed.length} file(s) no longer trusted in ${root}\n`);
      return EXIT.ok;
    }
    if (options.list) {
      const entries = await projectFiles(io);
      const recorded = await trustedFiles(storeFile, root);
      for (const entry of entries)
        io.stdout(
          `${statusWord(entry, style)}  ${showExactly(entry.key)}  ${entry.sha256.slice(0, 12)}  (${entry.kind}${entry.status === 'trusted' ? '' : `, ${refusalReason(entry)}`})\n`,
        );
      const seen = new Set(entries.map((entry) => entry.key));
      for (const key of Object.keys(recorded)
        .filter((k) => !seen.has(k))
        .sort())
        io.stdout(`${style.dim('trusted')}  ${showExactly(key)}  (not loaded now)\n`);
      if (entries.length === 0)
        io.stdout('This project loads no code or configuration of its own.\n');
      return EXIT.ok;
    }
    const entries =
      paths.length > 0 ? await namedFiles(root, io.cwd, paths) : await projectFiles(io);
    const trustable = entries.filter((entry) => !entry.denied);
    await recordTrust(storeFile, root, trustable);
    for (const entry of trustable)
      io.stdout(
        `${style.green('trusted')}  ${showExactly(entry.key)}  sha256 ${entry.sha256.slice(0, 12)}  (${entry.kind})\n`,
      );
    io.stdout(
      trustable.length > 0
        ? `${trustable.length} file(s) trusted in ${root} (recorded in ${storeFile ?? '?'})\n`
        : 'This project loads no code or configuration of its own: nothing to trust.\n',
    );
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

/**
 * Every project file a command here would load or run, found by loading
 * the project through a gate that trusts nothing new: untrusted code is
 * never imported to find it.
 */
async function projectFiles(io: CliIO): Promise<GateEntry[]> {
  const { gate } = await openProjectTrust({ cwd: io.cwd, env: io.env });
  // Discovery asks the gate of every file it loads, `.claude/agents` and `.gemini/agents` included.
  await agentEnvironment(io, { gate });
  await askAboutPolicies(io, gate);
  return gate.entries();
}

/** The policy files: loaded only when named with --policy, so listed here. */
async function askAboutPolicies(io: CliIO, gate: ProjectGate): Promise<void> {
  const policies = [...POLICY_FILES, ...(io.env.CADRE_POLICY ? [io.env.CADRE_POLICY] : [])];
  for (const policy of policies) await gate.allows(path.resolve(io.cwd, policy), 'policy');
}

/** The files named on the command line, as they are now. */
async function namedFiles(root: string, cwd: string, paths: string[]): Promise<GateEntry[]> {
  const entries: GateEntry[] = [];
  for (const named of paths) {
    const file = path.resolve(cwd, named);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile())
      throw new ConfigError(
        `${named}: ${info ? 'not a file; name the files to trust (or run `cadre trust` alone for all)' : 'no such file'}`,
      );
    const sha256 = await sha256File(file);
    if (sha256 === undefined) throw new ConfigError(`${named}: no such file`);
    entries.push({
      key: keyOf(root, cwd, named),
      file,
      kind: 'MCP commands',
      sha256,
      status: 'new',
      allowed: true,
      detail: [],
    });
  }
  return entries;
}

/** How trust names a path: relative to the project, or absolute outside it. */
function keyOf(root: string, cwd: string, named: string): string {
  const file = path.resolve(cwd, named);
  for (const folder of [root, path.resolve(cwd)])
    if (isInsideWorkspace(folder, file)) return path.relative(folder, file);
  return file;
}

function statusWord(entry: GateEntry, style: ReturnType<typeof createStyle>): string {
  if (entry.denied) return style.red('refused');
  switch (entry.status) {
    case 'trusted':
      return style.green('trusted');
    case 'new':
      return style.yellow('untrusted');
    case 'changed':
      return style.red('changed');
    default:
      return entry.status satisfies never;
  }
}
