import { AGENT_NAME_RULE, isValidAgentName, slugifyAgentName } from './agent-name.js';
import { errorAt, warningAt, type IssuePath, type PendingIssue } from './issues.js';
import { normalizeInput, normalizeOutput } from './normalize-io.js';
import { normalizeModel, normalizeRun } from './normalize-model.js';
import { normalizePrompt } from './normalize-prompt.js';
import { BUILT_IN_KINDS, type RawDefinition } from './raw-definition-schema.js';
import { didYouMean } from './did-you-mean.js';
import { pickSpelling } from './spelling.js';
import { normalizeTools } from './normalize-tools.js';
import type { AgentDefinition, RouterConfig } from './types.js';
import type { ValidateContext } from './validate-context.js';

export interface Normalized {
  definition: AgentDefinition;
  issues: PendingIssue[];
}

type Sections = Partial<RawDefinition>;

function section<K extends keyof Sections>(
  raw: Sections,
  keys: readonly K[],
  issues: PendingIssue[],
) {
  return pickSpelling<NonNullable<Sections[K]>>(raw, keys as readonly string[], [], issues);
}

function normalizeName(
  raw: Sections,
  ctx: ValidateContext,
  issues: PendingIssue[],
): { name: string; displayName?: string } {
  const name = raw.name ?? '';
  if (name === '' || isValidAgentName(name)) return { name };
  if (!ctx.foreign) {
    issues.push(errorAt(['name'], `name "${name}" ${AGENT_NAME_RULE}`));
    return { name };
  }
  const slug = slugifyAgentName(name);
  issues.push(
    warningAt(['name'], `name "${name}" is not usable as a tool name; loaded as "${slug}"`),
  );
  return { name: slug, displayName: name };
}

/** `kind: router` with its domains (agents, checked like tool names) and synthesizer. */
function normalizeRouter(
  raw: Sections,
  ctx: ValidateContext,
  issues: PendingIssue[],
): RouterConfig | undefined {
  const timeout = pickSpelling<number>(
    raw,
    ['domain_timeout_secs', 'domainTimeoutSecs'],
    [],
    issues,
  );
  const routerOnly = (
    ['domains', 'synthesizer', 'domain_timeout_secs', 'domainTimeoutSecs'] as const
  ).filter((key) => raw[key] !== undefined);
  if (raw.kind !== 'router') {
    for (const key of routerOnly) issues.push(errorAt([key], 'is only used with `kind: router`'));
    return undefined;
  }
  const domains = raw.domains ?? [];
  if (domains.length === 0)
    issues.push(errorAt(['kind'], 'a router needs `domains:` (the agents it routes to)'));
  const known = (name: string): boolean => ctx.isKnownAgent(name);
  domains.forEach((name, index) => {
    if (!known(name)) issues.push(errorAt(['domains', index], `unknown agent "${name}"`));
  });
  if (raw.synthesizer !== undefined && !known(raw.synthesizer)) {
    issues.push(errorAt(['synthesizer'], `unknown agent "${raw.synthesizer}"`));
  }
  return {
    domains,
    ...(raw.synthesizer !== undefined ? { synthesizer: raw.synthesizer } : {}),
    ...(timeout ? { domainTimeoutSecs: timeout.value } : {}),
  };
}

/**
 * The spec's required fields that Cadre lets chat agents and Markdown files
 * omit, for `cadre validate --strict`. Checked on the normalised definition (a
 * Markdown body is a system prompt), each at the path the author would write
 * it, so the issue points at its parent in the file.
 */
function checkStrict(raw: Sections, definition: AgentDefinition, issues: PendingIssue[]): void {
  const prompt =
    raw.promptConfig === undefined && raw.prompt_config ? 'prompt_config' : 'promptConfig';
  const missing: [boolean, IssuePath][] = [
    [definition.inputConfig === undefined, ['inputConfig']],
    [definition.outputConfig === undefined, ['outputConfig']],
    [definition.promptConfig.query === undefined, [prompt, 'query']],
    [
      definition.promptConfig.systemPrompt === undefined &&
        definition.promptConfig.initialMessages === undefined,
      [prompt, 'systemPrompt'],
    ],
  ];
  for (const [absent, path] of missing)
    if (absent)
      issues.push(errorAt(path, 'is required by the agent definition spec (--strict)', 'key'));
}

/**
 * Checked raw sections → the one `AgentDefinition` shape the runtime reads.
 * Defaults are NOT filled in (the runtime owns DEFAULT_MAX_TURNS etc.), so a
 * definition says only what its author said.
 */
export function normalize(raw: Sections, ctx: ValidateContext): Normalized {
  const issues: PendingIssue[] = [];
  const { name, displayName: slugged } = normalizeName(raw, ctx, issues);
  const definition: AgentDefinition = {
    name,
    description: raw.description ?? '',
    promptConfig: {},
    toolConfig: { tools: [] },
  };
  const display = pickSpelling<string>(raw, ['displayName', 'display_name'], [], issues);
  const displayName = display?.value ?? slugged;
  if (displayName !== undefined) definition.displayName = displayName;

  const input = section(raw, ['inputConfig', 'input_config'], issues);
  const inputs = normalizeInput(input?.value, input ? [input.key] : [], issues);
  if (inputs.config) definition.inputConfig = inputs.config;

  const output = section(raw, ['outputConfig', 'output_config'], issues);
  const outputConfig = normalizeOutput(output?.value, output ? [output.key] : [], ctx, issues);
  if (outputConfig) definition.outputConfig = outputConfig;
  if (raw.processOutput)
    definition.processOutput = raw.processOutput as (output: unknown) => string;

  const prompt = section(raw, ['promptConfig', 'prompt_config'], issues);
  definition.promptConfig = normalizePrompt(
    prompt?.value,
    prompt ? [prompt.key] : [],
    inputs.names,
    issues,
  );

  const model = section(raw, ['modelConfig', 'model_config'], issues);
  const modelConfig = normalizeModel(model?.value, model ? [model.key] : [], ctx, issues);
  if (modelConfig) definition.modelConfig = modelConfig;

  const tools = normalizeTools(raw, ctx, issues);
  definition.toolConfig = tools.toolConfig;
  if (tools.mcpServers) definition.mcpServers = tools.mcpServers;

  const run = section(raw, ['runConfig', 'run_config'], issues);
  const runConfig = normalizeRun(run?.value, run ? [run.key] : [], issues);
  if (runConfig) definition.runConfig = runConfig;

  if (raw.examples) definition.examples = raw.examples;
  const router = normalizeRouter(raw, ctx, issues);
  if (router) definition.router = router;
  if (raw.kind === 'workflow' || raw.kind === 'remote') {
    // Built-in kinds, but ones Cadre makes from other formats: a Cadre file cannot name them.
    issues.push(
      errorAt(
        ['kind'],
        `"${raw.kind}" agents come from ADK files (SequentialAgent, ParallelAgent, LoopAgent, RemoteA2aAgent) or Gemini CLI's \`kind: remote\` files; a Cadre file uses \`kind: router\` or a kind its run registers`,
      ),
    );
  } else if (raw.kind !== undefined && raw.kind !== 'agent' && raw.kind !== 'router') {
    // Another kind is the run's to register: a file cannot know, so it loads with a note.
    definition.kind = raw.kind;
    issues.push(
      warningAt(
        ['kind'],
        `"${raw.kind}" is not a built-in kind (${BUILT_IN_KINDS.join(', ')}): the run must register it${didYouMean(raw.kind, BUILT_IN_KINDS)}`,
      ),
    );
  }

  const onReject = section(raw, ['onReject', 'on_reject'], issues);
  if (onReject) definition.onReject = onReject.value;
  if (ctx.strict) checkStrict(raw, definition, issues);
  definition.source = ctx.source;
  return { definition, issues };
}
