import type { Tool } from '../../tools/types.js';
import { agentEnvironment } from '../agent-environment.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle, type Style } from '../style.js';
import type { JsonFlag } from '../options/output-options.js';
import type { TrustProjectFlag } from '../options/agent-options.js';

export type ToolsCommandOptions = JsonFlag & TrustProjectFlag;

/**
 * `cadre tools`: every tool an agent of this project can name: the
 * built-ins, then the code tools of `tools/`, `.cadre/tools` and
 * `~/.cadre/tools` with their files. A code tool that failed to load is a
 * warning naming its file.
 */
export async function toolsCommand(options: ToolsCommandOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  try {
    const environment = await agentEnvironment(io, {
      ...(options.trustProject ? { trustProject: true } : {}),
    });
    const fromFile = new Map(environment.codeTools.map((entry) => [entry.tool, entry]));
    const rows = environment.tools.map((tool) => {
      const code = fromFile.get(tool);
      return {
        name: tool.name,
        description: firstLine(tool.description),
        sideEffect: tool.sideEffect,
        origin: code ? code.origin : ('builtin' as const),
        ...(code ? { file: code.file } : {}),
      };
    });
    if (options.json) io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    else
      for (const tool of environment.tools)
        io.stdout(describeTool(tool, fromFile.get(tool)?.file, style));
    for (const line of environment.skipped) io.stderr(`${style.yellow('warning')} ${line}\n`);
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

/** One tool as `cadre tools` and `cadre agents` print it. */
export function describeTool(tool: Tool, file: string | undefined, style: Style): string {
  const where = file ? `code ${file}` : 'builtin';
  const effect = tool.sideEffect ? 'side effect: asks before it runs' : 'read-only';
  return `${style.bold(tool.name)}  ${style.dim(where)}\n  ${firstLine(tool.description)}\n  ${style.dim(effect)}\n`;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}
