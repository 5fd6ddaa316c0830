import path from 'node:path';
import { ValidationError } from '../errors/validation-error.js';
import { parseYamlText } from './data-file.js';
import { isRecord } from './describe-value.js';
import { resolveIssues, warningAt, type PendingIssue } from './issues.js';
import type { LoadOptions, LoadResult } from './load-options.js';
import type { AgentDefinition, WorkflowConfig } from './types.js';
import { displayFile } from './validate-context.js';

const WORKFLOWS: Readonly<Record<string, WorkflowConfig['kind']>> = {
  SequentialAgent: 'sequential',
  ParallelAgent: 'parallel',
  LoopAgent: 'loop',
};

/** Loads a sub-agent file; the caller passes `loadDefinition` (it would import this module). */
export type LoadChild = (file: string, options: LoadOptions) => Promise<LoadResult>;

/**
 * Completes an ADK agent config loaded on its own: `sub_agents` are loaded
 * from their `config_path` (relative to this file) and become the agents
 * of a Sequential / Parallel / Loop workflow, or the sub-agents an LlmAgent
 * may hand work to; `output_key` and LoopAgent's `max_iterations` are kept.
 * A sub-agent that cannot be loaded is a warning naming it (ADK projects
 * are often copied without all their files); a workflow left with no agent
 * runs as a single LLM agent, as before.
 */
export async function withAdkTree(
  loaded: LoadResult,
  file: string,
  text: string,
  options: LoadOptions & { cwd: string },
  loadChild: LoadChild,
): Promise<LoadResult> {
  const yaml = await import('yaml');
  const parsed = parseYamlText(yaml, text);
  const data = isRecord(parsed.data) ? parsed.data : {};
  const pending: PendingIssue[] = [];
  const warnings = [...loaded.warnings];
  const definition: AgentDefinition = { ...loaded.definition };
  if (typeof data.output_key === 'string' && data.output_key.trim())
    definition.outputKey = data.output_key.trim();

  const ancestors = [...(options.adkAncestors ?? []), file];
  const children: AgentDefinition[] = [];
  const entries = Array.isArray(data.sub_agents) ? data.sub_agents : [];
  for (const [index, entry] of entries.entries()) {
    const at = ['sub_agents', index];
    const configPath = isRecord(entry) ? entry.config_path : undefined;
    if (typeof configPath !== 'string') {
      pending.push(
        warningAt(at, 'only sub-agents given by config_path can be loaded; this one is left out'),
      );
      continue;
    }
    const child = path.resolve(path.dirname(file), configPath);
    if (ancestors.includes(child)) {
      pending.push(
        warningAt(
          [...at, 'config_path'],
          `${configPath} is already being loaded (a cycle); left out`,
        ),
      );
      continue;
    }
    try {
      const result = await loadChild(child, { ...options, adkAncestors: ancestors });
      children.push(result.definition);
      warnings.push(...result.warnings);
    } catch (error) {
      const reason =
        error instanceof ValidationError
          ? (error.issues[0]?.message ?? error.message)
          : error instanceof Error
            ? error.message
            : String(error);
      pending.push(
        warningAt(
          [...at, 'config_path'],
          `sub-agent ${configPath} could not be loaded (${reason}); left out`,
        ),
      );
    }
  }

  const agentClass = typeof data.agent_class === 'string' ? data.agent_class : 'LlmAgent';
  const kind = WORKFLOWS[agentClass];
  if (kind && children.length > 0) {
    definition.workflow =
      kind === 'loop'
        ? {
            kind,
            agents: children,
            ...(typeof data.max_iterations === 'number' && data.max_iterations > 0
              ? { maxIterations: Math.floor(data.max_iterations) }
              : {}),
          }
        : { kind, agents: children };
  } else if (kind) {
    pending.push(
      warningAt(
        ['agent_class'],
        `${agentClass} has no sub-agent Cadre could load; it runs as a single LLM agent`,
      ),
    );
  } else if (agentClass !== 'LlmAgent') {
    pending.push(
      warningAt(
        ['agent_class'],
        `${agentClass} is not an ADK agent class Cadre knows; it runs as an LLM agent`,
      ),
    );
  } else if (children.length > 0) {
    definition.subagents = children;
    const tools = [...definition.toolConfig.tools];
    for (const child of children) if (!tools.includes(child.name)) tools.push(child.name);
    definition.toolConfig = { ...definition.toolConfig, tools };
  }
  warnings.push(...resolveIssues(pending, parsed.mapper, displayFile(file, options.cwd)));
  return { definition, warnings };
}
