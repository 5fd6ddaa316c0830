import { stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { nameOf } from '../agents/agent-registry.js';
import { AGENT_NAME_PATTERN } from '../definition/agent-name.js';
import { loadDefinition } from '../definition/load-definition.js';
import type { AgentDefinition } from '../definition/types.js';
import { ConfigError } from '../errors/cadre-error.js';
import { formatIssue, ValidationError } from '../errors/validation-error.js';
import type { ProjectGate } from '../trust/project-gate.js';
import { agentEnvironment, type AgentEnvironment } from './agent-environment.js';
import type { CliIO } from './cli-io.js';

export interface AgentTarget {
  environment: AgentEnvironment;
  definition: AgentDefinition;
}

/**
 * What `cadre run|eval|replay --agent FILE|NAME` runs: a definition file (the
 * data definitions beside it are read too), else an agent discovered by
 * name. Only the target's own problems are reported: a neighbour left out
 * (an invalid agent file, a `package.json` or `policy.yaml` beside it) is
 * for `cadre validate DIR` to show. A name whose own file is invalid gets
 * that file's errors; an unknown name lists the agents there are.
 */
export async function agentTarget(
  target: string,
  io: CliIO,
  warn: (line: string) => void,
  gate?: ProjectGate,
): Promise<AgentTarget> {
  const path = resolve(io.cwd, target);
  const isFile = (await stat(path).catch(() => undefined)) !== undefined;
  const withGate = gate ? { gate } : {};
  if (isFile || !AGENT_NAME_PATTERN.test(target)) {
    const environment = await agentEnvironment(io, { besides: path, ...withGate });
    // A code tool that failed to load explains an "unknown tool" below: it is said.
    environment.toolWarnings.forEach(warn);
    const { definition, warnings } = await loadDefinition(path, environment.loadOptions);
    for (const warning of warnings) warn(formatIssue(warning));
    return { environment, definition };
  }
  const environment = await agentEnvironment(io, withGate);
  environment.toolWarnings.forEach(warn);
  const entry = environment.registry.get(target);
  if (entry?.kind === 'definition') return { environment, definition: entry.definition };
  if (entry?.kind === 'code')
    throw new ConfigError(
      `${target} is a built-in code agent: name it in an agent's tools, or run it from code; this command runs definitions.`,
    );
  // The agent's own file is there but invalid: its errors, not "no such agent".
  const own = environment.skippedFiles.find((skipped) => stem(skipped.file) === target);
  if (own) throw new ValidationError(own.issues);
  const names = environment.registry
    .list()
    .filter((agent) => agent.entry.kind === 'definition')
    .map((agent) => nameOf(agent.entry));
  throw new ValidationError([
    {
      path: target,
      message: `no such file, and no agent of that name in ./agents, .cadre/agents, .claude/agents, .gemini/agents or ~/.cadre/agents${names.length > 0 ? ` (agents: ${names.join(', ')})` : ''}`,
    },
  ]);
}

/** `agents/helper.yaml` → `helper`; `reviewer.agent.md` → `reviewer`. */
function stem(file: string): string {
  const name = basename(file, extname(file));
  return name.endsWith('.agent') ? name.slice(0, -'.agent'.length) : name;
}
