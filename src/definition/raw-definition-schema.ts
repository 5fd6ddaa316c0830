import * as z from 'zod';
import { mcpServersField } from './mcp-servers-schema.js';
import {
  jsonSchemaObject,
  nonEmptyText,
  numberBetween,
  oneOf,
  kindName,
  outputFormatter,
  positiveInt,
  strictObject,
  stringList,
  stringMap,
  text,
  thinkingBudget,
  zodSchema,
  expected,
} from './raw-fields.js';

/**
 * The RAW authoring format: what a person writes in YAML / JSON / TS. Both
 * spellings load — the spec's camelCase and the .proto's snake_case (and the
 * proto3 JSON names such as `topP`, `maxTurns`); normalize.ts merges them.
 * Pure validation, no transforms, so the JSON Schema export is faithful.
 */

/** The kinds a file may name that need no registering. */
export const BUILT_IN_KINDS = ['agent', 'router'] as const;

const INPUT_TYPES = [
  'string',
  'number',
  'integer',
  'boolean',
  'string[]',
  'number[]',
  'object',
  'array',
] as const;

const inputArgument = strictObject(
  {
    description: text('What the caller should pass.').optional(),
    type: oneOf(INPUT_TYPES, 'The value type.'),
    required: z
      .boolean({ error: expected('true or false') })
      .describe('Whether the caller must pass it.')
      .optional(),
  },
  'One input argument.',
);

const inputSchemaField = () =>
  z
    .union(
      [
        jsonSchemaObject('JSON Schema of the inputs object.'),
        text('JSON text of the schema (proto form).'),
      ],
      {
        error: expected('a JSON Schema mapping or its JSON text'),
      },
    )
    .optional();

const inputConfig = strictObject(
  {
    inputs: stringMap(
      inputArgument,
      'a mapping of input names',
      'Named input arguments (the spec form).',
    ).optional(),
    inputSchema: inputSchemaField(),
    input_schema: inputSchemaField(),
  },
  "The agent's inputs: the spec's `inputs` map or a JSON Schema `inputSchema`.",
);

const schemaField = () =>
  z
    .union(
      [
        zodSchema(),
        text('A registered schema name, a .json/.yaml path relative to this file, or JSON text.'),
        jsonSchemaObject('An inline JSON Schema.'),
      ],
      { error: expected('a schema name, a .json/.yaml file path or a JSON Schema mapping') },
    )
    .describe('Schema of the complete_task argument.')
    .optional();

const outputConfig = strictObject(
  {
    outputName: text('Argument name of complete_task.').optional(),
    output_name: text('Proto spelling of outputName.').optional(),
    description: text('What the final output is.').optional(),
    schema: schemaField(),
    outputs: stringMap(
      text('What this output holds.'),
      'a mapping of output names to descriptions',
      'Named outputs emitted with emit_value: name → description.',
    ).optional(),
  },
  'What the agent produces.',
);

const messagePart = strictObject({ text: text('The text of this part.') }, 'A text part.');

const initialMessage = strictObject(
  {
    role: oneOf(['user', 'model'], 'Who said it.'),
    content: text('The message text.').optional(),
    parts: z.array(messagePart, { error: expected('a list of parts') }).optional(),
  },
  'A seed message: `{role, content}` or `{role, parts: [{text}]}`.',
);

const initialMessages = () =>
  z
    .array(initialMessage, { error: expected('a list of messages') })
    .describe('Few-shot seed messages.')
    .optional();

const promptConfig = strictObject(
  {
    query: text(
      'First user message; `${name}` placeholders are filled from the inputs.',
    ).optional(),
    systemPrompt: text('The persona and rules.').optional(),
    system_prompt: text('Proto spelling of systemPrompt.').optional(),
    initialMessages: initialMessages(),
    initial_messages: initialMessages(),
  },
  'The prompts.',
);

const modelConfig = strictObject(
  {
    model: nonEmptyText(
      'Model id, optionally provider-prefixed (`openai:gpt-4.1`); `inherit` = the run default.',
    ).optional(),
    temp: numberBetween(0, 2, 'Sampling temperature.').optional(),
    temperature: numberBetween(0, 2, 'Proto spelling of temp.').optional(),
    top_p: numberBetween(0, 1, 'Nucleus sampling.').optional(),
    topP: numberBetween(0, 1, 'Proto JSON spelling of top_p.').optional(),
    thinkingBudget: thinkingBudget('Max thinking tokens; -1 = model decides.').optional(),
    thinking_budget: thinkingBudget('Proto spelling of thinkingBudget.').optional(),
  },
  'The model and its sampling settings.',
);

const toolConfig = strictObject(
  {
    tools: stringList(
      'Tool names to grant; `shell(git status:*)` narrows a tool, `server__tool` names an MCP tool.',
    ),
  },
  'The tools the agent may call.',
);

const compactionTokens = (description: string) => positiveInt(description).optional();

const compaction = strictObject(
  {
    enabled: z
      .boolean({ error: expected('true or false') })
      .describe('false: never summarise earlier turns (default true).')
      .optional(),
    threshold: numberBetween(
      0.1,
      0.99,
      "Share of the model's context window at which earlier turns are summarised (default 0.8).",
    ).optional(),
    keep_turns: positiveInt('Newest model turns kept verbatim (default 4).').optional(),
    keepTurns: positiveInt('camelCase spelling of keep_turns.').optional(),
    context_window: compactionTokens(
      "The model's context window in tokens, instead of the model table's.",
    ),
    contextWindow: compactionTokens('camelCase spelling of context_window.'),
    max_tool_result_chars: positiveInt(
      'Tool results longer than this are trimmed, with a marker, in the turns that are summarised (default 4000).',
    ).optional(),
    maxToolResultChars: positiveInt('camelCase spelling of max_tool_result_chars.').optional(),
  },
  'How a conversation that nears the context window is compacted.',
);

const runConfig = strictObject(
  {
    max_turns: positiveInt('Most model turns.').optional(),
    maxTurns: positiveInt('Proto JSON spelling of max_turns.').optional(),
    max_time_minutes: positiveInt('Most minutes of wall time.').optional(),
    maxTimeMinutes: positiveInt('Proto JSON spelling of max_time_minutes.').optional(),
    max_cost_usd: numberBetween(
      0.000001,
      1_000_000,
      'Most US dollars the run and all its subagents may spend together (model prices from the built-in table or .cadre/prices.json); a model call whose worst case would not fit does not start (MAX_COST).',
    ).optional(),
    maxCostUsd: numberBetween(
      0.000001,
      1_000_000,
      'camelCase spelling of max_cost_usd.',
    ).optional(),
    execution_mode: z
      .enum(['async', 'threads'])
      .describe(
        "Where this agent's subagents run: `async` (default, in this thread) or `threads` (each in a worker thread of its own).",
      )
      .optional(),
    executionMode: z
      .enum(['async', 'threads'])
      .describe('camelCase spelling of execution_mode.')
      .optional(),
    compaction: compaction.optional(),
  },
  'Limits against runaway runs.',
);

const onReject = () => oneOf(['continue', 'fail'], 'What a rejected approval does.').optional();

/** Top-level fields; each is checked on its own so one bad section never hides another's errors. */
export const rawDefinitionShape = {
  $schema: text('JSON Schema of this file, for editors; ignored.').optional(),
  name: nonEmptyText('Machine name, used as the tool name: letters, digits, _ and -.'),
  displayName: text('Human-readable name.').optional(),
  display_name: text('Proto spelling of displayName.').optional(),
  description: text('What the agent does and when to use it; parents read this to delegate.'),
  inputConfig: inputConfig.optional(),
  input_config: inputConfig.optional(),
  outputConfig: outputConfig.optional(),
  output_config: outputConfig.optional(),
  processOutput: outputFormatter().optional(),
  promptConfig: promptConfig.optional(),
  prompt_config: promptConfig.optional(),
  modelConfig: modelConfig.optional(),
  model_config: modelConfig.optional(),
  toolConfig: toolConfig.optional(),
  tool_config: toolConfig.optional(),
  runConfig: runConfig.optional(),
  run_config: runConfig.optional(),
  onReject: onReject(),
  on_reject: onReject(),
  mcpServers: mcpServersField().optional(),
  mcp_servers: mcpServersField().optional(),
  kind: kindName(
    BUILT_IN_KINDS,
    '`router`: route to domain agents, then synthesize; another name: a kind the run registers.',
  ).optional(),
  examples: stringList(
    'Example requests this agent handles; a router shows them to pick domains.',
  ).optional(),
  domains: stringList('Router only: the domain agents it may route to, by name.').optional(),
  synthesizer: nonEmptyText(
    'Router only: the agent that merges domain answers (default: a built-in prompt).',
  ).optional(),
  domain_timeout_secs: numberBetween(
    0.001,
    86_400,
    'Router only: how long each domain may take.',
  ).optional(),
  domainTimeoutSecs: numberBetween(
    0.001,
    86_400,
    'camelCase spelling of domain_timeout_secs.',
  ).optional(),
};

export const rawDefinitionSchema = strictObject(rawDefinitionShape, 'A Cadre agent definition.');

export type RawDefinition = z.output<typeof rawDefinitionSchema>;
export type RawInputConfig = z.output<typeof inputConfig>;
export type RawOutputConfig = z.output<typeof outputConfig>;
export type RawPromptConfig = z.output<typeof promptConfig>;
export type RawModelConfig = z.output<typeof modelConfig>;
export type RawRunConfig = z.output<typeof runConfig>;
export type RawInitialMessage = z.output<typeof initialMessage>;
