import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { RegisteredAgent } from '../../agents/agent-registry.js';
import { formatIssue } from '../../errors/validation-error.js';
import { loadDefinitionsFromDir } from '../../definition/load-definition.js';
import { builtinToolNames } from '../../tools/builtin/index.js';
import { agentEnvironment } from '../agent-environment.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { describeTool } from './tools.js';
import { createStyle, type Style } from '../style.js';

export const DEFAULT_AGENT_DIRS = ['agents', '.cadre/agents', '.claude/agents', '.gemini/agents'];

/**
 * `cadre agents [dir]`: without a folder, every agent a run can call, by
 * precedence (project, then user, then built-in) with overrides noted;
 * with a folder, the definitions in it. Broken files are named, not fatal.
 */
export async function agentsCommand(dir: string | undefined, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  try {
    return await listAgents(dir, io, style);
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

async function listAgents(dir: string | undefined, io: CliIO, style: Style): Promise<number> {
  if (!dir) {
    const environment = await agentEnvironment(io);
    const agents = environment.registry.list();
    for (const agent of agents) io.stdout(describe(agent, style));
    // Code tools are found like agents, so they are listed with them (`cadre tools` lists every tool).
    if (environment.codeTools.length > 0) io.stdout(`\n${style.bold('Code tools')}\n`);
    for (const { tool, file } of environment.codeTools) io.stdout(describeTool(tool, file, style));
    for (const line of environment.diagnostics) io.stderr(`${style.yellow('note')} ${line}\n`);
    // Tools an agent file names that Cadre leaves out are said here, not only when it runs.
    for (const warning of environment.warnings)
      io.stderr(`${style.yellow('warning')} ${formatIssue(warning)}\n`);
    if (agents.length === 0)
      io.stderr(
        `No agent definitions found in ${DEFAULT_AGENT_DIRS.join(', ')} or ~/.cadre/agents.\n`,
      );
    return EXIT.ok;
  }
  const absolute = resolve(io.cwd, dir);
  if (!(await stat(absolute).catch(() => undefined))?.isDirectory()) {
    io.stderr(`${style.red('error')} not a folder: ${dir}\n`);
    return EXIT.failed;
  }
  const { loaded, failed } = await loadDefinitionsFromDir(absolute, {
    knownTools: builtinToolNames(),
    isKnownAgent: () => true,
    cwd: io.cwd,
  });
  for (const { definition } of loaded) {
    io.stdout(
      describe(
        {
          entry: { kind: 'definition', definition },
          origin: 'project',
          ...(definition.source?.file ? { file: relative(io.cwd, definition.source.file) } : {}),
        },
        style,
      ),
    );
  }
  for (const entry of failed) {
    io.stderr(
      `${style.red('invalid')} ${relative(io.cwd, entry.file)}: ${entry.error.issues.map(formatIssue)[0] ?? entry.error.message}\n`,
    );
  }
  return loaded.length === 0 ? EXIT.failed : EXIT.ok;
}

function describe(agent: RegisteredAgent, style: Style): string {
  const entry = agent.entry;
  const name = entry.kind === 'definition' ? entry.definition.name : entry.name;
  const description =
    entry.kind === 'definition' ? entry.definition.description : entry.description;
  const detail =
    entry.kind === 'code'
      ? 'built-in code agent'
      : entry.definition.router
        ? `router over ${entry.definition.router.domains.join(', ')}`
        : entry.definition.toolConfig.tools.join(', ') || 'no tools';
  return `${style.bold(name)}  ${style.dim(`${agent.origin}${agent.file ? ` ${agent.file}` : ''}`)}\n  ${firstLine(description)}\n  ${style.dim(detail)}\n`;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}
