import path from 'node:path';
import { ValidationError } from '../errors/validation-error.js';
import { withAdkExtras } from './adk-extras.js';
import { parseYamlText } from './data-file.js';
import { isRecord } from './describe-value.js';
import { errorAt, resolveIssues, warningAt, type PendingIssue } from './issues.js';
import type { LoadOptions, LoadResult } from './load-options.js';
import { adkAgentTools } from './adk-agent-tools.js';
import { adkRemote } from './adk-remote.js';
import type { ValidationIssue } from '../errors/validation-error.js';
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
 * A `config_path` that is missing, mistyped or unloadable is an error
 * naming it, and so is a workflow left with no agent: ADK refuses both, and
 * running the rest would do something the author did not write. A `code:`
 * sub-agent (a Python object) is a warning: Cadre cannot import it.
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
  const extras = withAdkExtras(data, loaded.definition);
  const pending: PendingIssue[] = [...extras.pending];
  const warnings = [...loaded.warnings];
  const definition: AgentDefinition = { ...extras.definition };
  if (typeof data.output_key === 'string' && data.output_key.trim())
    definition.outputKey = data.output_key.trim();

  const ancestors = [...(options.adkAncestors ?? []), file];
  const children: AgentDefinition[] = [];
  const entries = Array.isArray(data.sub_agents) ? data.sub_agents : [];
  const childIssues: ValidationIssue[] = [];
  /** Loads the sub-agent file a `config_path` names (relative to this file); undefined when it cannot. */
  const loadAt = async (configPath: string, at: (string | number)[]) => {
    const child = path.resolve(path.dirname(file), configPath);
    if (ancestors.includes(child)) {
      pending.push(
        errorAt([...at, 'config_path'], `${configPath} is already being loaded (a cycle)`),
      );
      return undefined;
    }
    try {
      const result = await loadChild(child, { ...options, adkAncestors: ancestors });
      warnings.push(...result.warnings);
      return result.definition;
    } catch (error) {
      const missing =
        error instanceof ValidationError && error.issues[0]?.message === 'file not found';
      // The sub-agent's own problems are listed too, at their own file and line.
      if (error instanceof ValidationError && !missing) childIssues.push(...error.issues);
      const reason = missing
        ? `file not found (${displayFile(child, options.cwd) ?? child})`
        : error instanceof ValidationError
          ? (error.issues[0]?.message ?? error.message)
          : error instanceof Error
            ? error.message
            : String(error);
      pending.push(
        errorAt([...at, 'config_path'], `sub-agent ${configPath} could not be loaded: ${reason}`),
      );
      return undefined;
    }
  };
  for (const [index, entry] of entries.entries()) {
    const at = ['sub_agents', index];
    const configPath = isRecord(entry) ? entry.config_path : undefined;
    if (typeof configPath !== 'string' || !configPath.trim()) {
      pending.push(
        isRecord(entry) && typeof entry.code === 'string' && configPath === undefined
          ? warningAt(
              [...at, 'code'],
              `sub-agent ${entry.code} is Python code, which Cadre cannot import; left out`,
            )
          : errorAt(
              configPath === undefined ? at : [...at, 'config_path'],
              'a sub-agent needs config_path: the path of its YAML file, relative to this one',
            ),
      );
      continue;
    }
    const loadedChild = await loadAt(configPath, at);
    if (loadedChild) children.push(loadedChild);
  }
  const agentTools = await adkAgentTools(data.tools, pending, loadAt);

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
      errorAt(['agent_class'], `${agentClass} has no sub-agent Cadre can load; it cannot run`),
    );
  } else if (agentClass === 'RemoteA2aAgent') {
    const remote = adkRemote(data, pending, path.dirname(file));
    if (remote) definition.remote = remote;
  } else if (agentClass !== 'LlmAgent') {
    pending.push(
      warningAt(
        ['agent_class'],
        `${agentClass} is not an ADK agent class Cadre knows; it runs as an LLM agent`,
      ),
    );
  } else if (children.length + agentTools.length > 0) {
    // Sub-agents and AgentTools alike: agents this one calls as tools.
    const callable = [...children, ...agentTools.filter((a) => !children.includes(a))];
    definition.subagents = callable;
    const tools = [...definition.toolConfig.tools];
    for (const child of callable) if (!tools.includes(child.name)) tools.push(child.name);
    definition.toolConfig = { ...definition.toolConfig, tools };
  }
  if (kind && agentTools.length > 0)
    pending.push(
      warningAt(['tools'], `${agentClass} calls no tools (as in ADK); its AgentTools are left out`),
    );
  const issues = resolveIssues(pending, parsed.mapper, displayFile(file, options.cwd));
  if (issues.some((issue) => issue.severity === 'error'))
    throw new ValidationError([...issues, ...childIssues]);
  warnings.push(...issues);
  return { definition, warnings };
}
