import { adkMcpToolsets, AGENT_TOOL, MCP_TOOLSETS } from './adk-toolsets.js';
import { isRecord } from './describe-value.js';
import type { IssuePath } from './issues.js';
import type { ForeignRaw } from './markdown-to-raw.js';
import type { PathRule, SourceNote } from './translating-mapper.js';

/** Keys that make a YAML file an ADK agent config rather than a Cadre definition. */
const ADK_MARKERS = ['agent_class', 'instruction', 'sub_agents'];
const CADRE_SECTIONS = [
  'promptConfig',
  'prompt_config',
  'toolConfig',
  'tool_config',
  'modelConfig',
  'model_config',
  'runConfig',
  'run_config',
];

export const isAdkConfig = (data: unknown): data is Record<string, unknown> =>
  isRecord(data) &&
  ADK_MARKERS.some((key) => key in data) &&
  !CADRE_SECTIONS.some((key) => key in data);

/**
 * ADK tools: `- google_search` or `- name: google_search`. `AgentTool` and
 * `MCPToolset` entries are not tool names: they are read elsewhere.
 */
function adkTools(value: unknown, notes: SourceNote[]): { name: string; path: IssuePath }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, index) => {
    if (isRecord(item) && (item.name === AGENT_TOOL || MCP_TOOLSETS.has(String(item.name))))
      return [];
    const name =
      typeof item === 'string'
        ? item
        : isRecord(item) && typeof item.name === 'string'
          ? item.name
          : undefined;
    if (name === undefined)
      notes.push({
        path: ['tools', index],
        message: 'tool entry has no name; ignored',
        severity: 'warning',
      });
    return name === undefined
      ? []
      : [{ name, path: ['tools', index, ...(typeof item === 'string' ? [] : ['name'])] }];
  });
}

/**
 * An ADK agent config as a Cadre raw definition: `instruction` is the system
 * prompt, tools are named (omitted = none, as in ADK). `sub_agents`,
 * workflow classes and `output_key` are completed by adk-tree.ts, which
 * loads the sub-agent files.
 */
export function adkToRaw(data: Record<string, unknown>): ForeignRaw {
  const notes: SourceNote[] = [];
  const rules: PathRule[] = [
    [['name'], ['name']],
    [['description'], ['description']],
    [['promptConfig', 'systemPrompt'], ['instruction']],
    [['modelConfig', 'model'], ['model']],
    [
      ['modelConfig', 'temp'],
      ['generate_content_config', 'temperature'],
    ],
    [
      ['modelConfig', 'top_p'],
      ['generate_content_config', 'top_p'],
    ],
  ];
  if (typeof data.name === 'string' && !/^[\p{L}_][\p{L}\p{N}_]*$/u.test(data.name))
    notes.push({
      path: ['name'],
      message: `"${data.name}" is not an identifier, which ADK requires of agent names (letters, digits and _); ADK refuses this file, Cadre loads it`,
      severity: 'warning',
    });
  else if (data.name === 'user')
    notes.push({
      path: ['name'],
      message: 'ADK reserves the agent name "user"; ADK refuses this file, Cadre loads it',
      severity: 'warning',
    });
  const raw: Record<string, unknown> = {
    name: data.name,
    description: data.description === undefined ? '' : data.description,
    promptConfig: data.instruction === undefined ? {} : { systemPrompt: data.instruction },
  };
  const modelConfig: Record<string, unknown> = {};
  if (data.model !== undefined) modelConfig.model = data.model;
  const generation = isRecord(data.generate_content_config) ? data.generate_content_config : {};
  if (generation.temperature !== undefined) modelConfig.temp = generation.temperature;
  if (generation.top_p !== undefined) modelConfig.top_p = generation.top_p;
  if (Object.keys(modelConfig).length > 0) raw.modelConfig = modelConfig;
  const tools = adkTools(data.tools, notes);
  raw.toolConfig = { tools: tools.map((tool) => tool.name) };
  tools.forEach((tool, index) => rules.push([['toolConfig', 'tools', index], tool.path]));
  const toolsets = (Array.isArray(data.tools) ? data.tools : []).flatMap((item: unknown, index) =>
    isRecord(item) && MCP_TOOLSETS.has(String(item.name)) ? [{ item, index }] : [],
  );
  adkMcpToolsets(toolsets, raw, rules, notes);
  return { raw, rules, notes, namedServers: [] };
}
