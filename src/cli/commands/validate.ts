import { stat } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import {
  formatIssue,
  ValidationError,
  type ValidationIssue,
} from '../../errors/validation-error.js';
import { loadDefinition, loadDefinitionsFromDir } from '../../definition/load-definition.js';
import type { LoadResult } from '../../definition/load-definition.js';
import { SERVER_TOOL_NAMES } from '../../tools/server-tool-names.js';
import { agentEnvironment, type AgentEnvironment } from '../agent-environment.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle } from '../style.js';
import { withProjectTrust } from '../project-trust-flow.js';
import type { TrustProjectFlag } from '../options/agent-options.js';

export interface ValidateCommandOptions extends TrustProjectFlag {
  /** Also require the spec's required fields. */
  strict?: boolean;
}

/** `cadre validate <files|dirs>`: exit 0 when every definition is valid, 1 otherwise. */
export async function validateCommand(
  paths: string[],
  options: ValidateCommandOptions,
  io: CliIO,
): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  let failed = 0;
  let passed = 0;
  const fail = (issues: readonly ValidationIssue[]): void => {
    failed++;
    for (const issue of issues) io.stdout(`${style.red('error')} ${formatIssue(issue)}\n`);
  };
  const pass = (loaded: LoadResult): void => {
    passed++;
    for (const warning of loaded.warnings)
      io.stdout(`${style.yellow('warning')} ${formatIssue(warning)}\n`);
    const file = loaded.definition.source?.file;
    const serverOnly = loaded.definition.toolConfig.tools.filter((t) =>
      SERVER_TOOL_NAMES.includes(t),
    );
    if (serverOnly.length > 0)
      io.stdout(
        `${style.dim('note')} ${file ? relative(io.cwd, file) : loaded.definition.name}: ${serverOnly.join(', ')} run under \`cadre serve\` and \`cadre worker\`, where a person approves each call\n`,
      );
    io.stdout(
      `${style.green('ok')} ${file ? relative(io.cwd, file) : loaded.definition.name} (${loaded.definition.name})\n`,
    );
  };
  for (const path of paths.length > 0 ? paths : ['.']) {
    const absolute = resolve(io.cwd, path);
    try {
      const info = await stat(absolute).catch(() => undefined);
      if (!info) {
        fail([{ path: '', message: 'no such file or folder', file: path }]);
        continue;
      }
      const isDir = info.isDirectory();
      // Definitions may name agents found beside them or in the project's agent folders;
      // a named folder is read whole, a named file's sibling code is never imported.
      // What `cadre serve` runs is valid here: its mail and calendar tools included.
      // Untrusted project code is not imported to check it: it is named, with how to trust it.
      const checked = await withProjectTrust(
        io,
        options.trustProject ? { trustProject: true } : {},
        async (gate) => {
          const environment = await agentEnvironment(io, {
            ...(isDir ? { folders: [absolute] } : { besides: absolute }),
            extraTools: SERVER_TOOL_NAMES,
            gate,
          });
          // A file reports itself only; a folder also names what else was left out
          // (its own files are reported below as errors, once).
          const others = isDir ? neighbours(environment, absolute) : environment.toolWarnings;
          for (const line of others) io.stderr(`${style.yellow('warning')} ${line}\n`);
          // --strict: the loader checks the spec's required fields, with their positions.
          const loadOptions = {
            ...environment.loadOptions,
            ...(options.strict ? { strict: true } : {}),
          };
          return isDir
            ? await loadDefinitionsFromDir(absolute, loadOptions)
            : { loaded: [await loadDefinition(absolute, loadOptions)], failed: [] };
        },
      );
      checked.loaded.forEach(pass);
      for (const entry of checked.failed) fail(entry.error.issues);
    } catch (error) {
      if (error instanceof ValidationError) fail(error.issues);
      else return reportError(error, io.stderr, style);
    }
  }
  io.stdout(`${passed} valid, ${failed} invalid\n`);
  return failed > 0 || passed === 0 ? EXIT.failed : EXIT.ok;
}

/** What the environment left out, but for the definition files inside `dir`. */
function neighbours(environment: AgentEnvironment, dir: string): string[] {
  // The folder is read flat: a file in a subfolder (./agents under .) is a neighbour.
  const own = environment.skippedFiles.filter((skipped) => dirname(skipped.file) === dir);
  return [
    ...environment.toolWarnings,
    ...environment.skippedFiles.filter((s) => !own.includes(s)).map((s) => s.line),
  ];
}
