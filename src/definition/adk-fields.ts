/** Fields of ADK's YAML agent configs (BaseAgentConfig, LlmAgentConfig, LoopAgentConfig, RemoteA2aAgentConfig). */
export const ADK_FIELDS: ReadonlySet<string> = new Set([
  'agent_class',
  'name',
  'description',
  'sub_agents',
  'before_agent_callbacks',
  'after_agent_callbacks',
  'model',
  'model_code',
  'instruction',
  'static_instruction',
  'global_instruction',
  'disallow_transfer_to_parent',
  'disallow_transfer_to_peers',
  'input_schema',
  'output_schema',
  'output_key',
  'accumulate_output_key',
  'include_contents',
  'tools',
  'before_model_callbacks',
  'after_model_callbacks',
  'before_tool_callbacks',
  'after_tool_callbacks',
  'generate_content_config',
  'planner',
  'code_executor',
  'max_iterations',
  'agent_card',
  // Cadre's, for a RemoteA2aAgent: the headers its calls send (see remote-auth.ts).
  'auth',
]);

/** ADK fields that Cadre, Claude Code and Gemini CLI files never have: any one marks an ADK config. */
export const ADK_ONLY_FIELDS: ReadonlySet<string> = new Set(
  [...ADK_FIELDS].filter(
    (field) => !['name', 'description', 'model', 'tools', 'auth'].includes(field),
  ),
);

/** The ADK file name `adk web` and `adk run` look for. */
export const ADK_FILE_NAMES: ReadonlySet<string> = new Set(['root_agent.yaml', 'root_agent.yml']);

/** ADK's own agent classes; a custom class (`my_package.MyAgent`) has fields of its own. */
const ADK_CLASSES = new Set(['LlmAgent', 'Agent', 'SequentialAgent', 'ParallelAgent', 'LoopAgent']);

export const isAdkClass = (agentClass: unknown): boolean =>
  agentClass === undefined ||
  (typeof agentClass === 'string' &&
    ADK_CLASSES.has(agentClass.replace(/^google\.adk\.agents\./, '')));

/** Where a Cadre definition says what an ADK field says. */
export const CADRE_SPELLING: Readonly<Record<string, string>> = {
  model: 'modelConfig.model',
  instruction: 'promptConfig.systemPrompt',
  tools: 'toolConfig.tools',
  generate_content_config: 'modelConfig (temp, top_p)',
  input_schema: 'inputConfig.inputSchema',
  output_schema: 'outputConfig.schema',
};
