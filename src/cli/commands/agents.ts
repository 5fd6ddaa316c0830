import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { formatIssue } from '../../errors/validation-error.js';
import { loadDefinitionsFromDir } from '../../spec/load-definition.js';
import { builtinToolNames } from '../../tools/builtin/index.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { createStyle } from '../style.js';

export const DEFAULT_AGENT_DIRS = ['agents', '.cadre/agents'];

/** `cadre agents [dir]`: the definitions found, one line each; broken files are named, not fatal. */
export async function agentsCommand(dir: string | undefined, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const dirs = dir ? [dir] : DEFAULT_AGENT_DIRS;
  let found = 0;
  for (const folder of dirs) {
    const absolute = resolve(io.cwd, folder);
    if (!(await stat(absolute).catch(() => undefined))?.isDirectory()) {
      if (dir) io.stderr(`${style.red('error')} not a folder: ${folder}\n`);
      continue;
    }
    const { loaded, failed } = await loadDefinitionsFromDir(absolute, {
      knownTools: builtinToolNames(),
      cwd: io.cwd,
    });
    for (const { definition } of loaded) {
      found++;
      const file = definition.source?.file ? relative(io.cwd, definition.source.file) : '';
      const tools = definition.toolConfig.tools.join(', ') || 'no tools';
      io.stdout(
        `${style.bold(definition.name)}  ${style.dim(file)}\n  ${firstLine(definition.description)}\n  ${style.dim(tools)}\n`,
      );
    }
    for (const entry of failed) {
      io.stderr(
        `${style.red('invalid')} ${relative(io.cwd, entry.file)}: ${entry.error.issues.map(formatIssue)[0] ?? entry.error.message}\n`,
      );
    }
  }
  if (found === 0) io.stderr(`No agent definitions found in ${dirs.join(', ')}.\n`);
  return dir && found === 0 ? EXIT.failed : EXIT.ok;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}
