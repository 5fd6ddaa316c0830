import type { AgentDefinition, OutputSchema } from './types.js';

/** The proto3 JSON form of `gemini.agent.v1.AgentDefinition` (spec/agent_definition.proto): lowerCamelCase names. */
export interface ProtoAgentDefinition {
  name: string;
  displayName?: string;
  description: string;
  inputConfig?: {
    inputs?: Record<string, { description?: string; type: string; required?: boolean }>;
    inputSchema?: string;
  };
  outputConfig?: {
    outputName?: string;
    description?: string;
    schema?: string;
    outputs?: Record<string, string>;
  };
  promptConfig?: {
    query?: string;
    systemPrompt?: string;
    initialMessages?: { role: string; parts: { text: string }[] }[];
  };
  modelConfig?: { model?: string; temperature?: number; topP?: number; thinkingBudget?: number };
  toolConfig?: { tools: string[] };
  runConfig?: { maxTimeMinutes?: number; maxTurns?: number };
  onReject?: string;
}

/** Copies the defined entries only: proto3 JSON omits unset fields. */
function defined<T extends Record<string, unknown>>(object: T): Partial<T> | undefined {
  const entries = Object.entries(object).filter(([, value]) => value !== undefined);
  return entries.length > 0 ? (Object.fromEntries(entries) as Partial<T>) : undefined;
}

/**
 * The proto's `string schema`: a registered schema keeps its name (the
 * spec's own example), anything else becomes JSON Schema text. A Zod schema
 * that could not be converted to JSON Schema cannot be written.
 */
function schemaString(schema: OutputSchema | undefined): string | undefined {
  if (!schema) return undefined;
  if (schema.origin?.startsWith('registry:')) return schema.origin.slice('registry:'.length);
  if (schema.kind === 'json_schema') return JSON.stringify(schema.schema);
  return schema.jsonSchema ? JSON.stringify(schema.jsonSchema) : undefined;
}

/** `validateDefinitionObject(toProtoJson(def))` loads back to `def` (less `processOutput` and `source`). */
export function toProtoJson(def: AgentDefinition): ProtoAgentDefinition {
  const {
    inputConfig: input,
    outputConfig: output,
    promptConfig: prompt,
    modelConfig: model,
    runConfig: run,
  } = def;
  const messages = prompt.initialMessages?.map((message) => ({
    role: message.role,
    parts: message.parts.flatMap((part) => (part.kind === 'text' ? [{ text: part.text }] : [])),
  }));
  const out: ProtoAgentDefinition = { name: def.name, description: def.description };
  if (def.displayName !== undefined) out.displayName = def.displayName;
  const inputConfig =
    input &&
    defined({
      inputs: input.inputs,
      inputSchema: input.inputSchema && JSON.stringify(input.inputSchema),
    });
  if (inputConfig) out.inputConfig = inputConfig;
  const outputConfig =
    output &&
    defined({
      outputName: output.outputName,
      description: output.description,
      schema: schemaString(output.schema),
      outputs: output.outputs,
    });
  if (outputConfig) out.outputConfig = outputConfig;
  out.promptConfig =
    defined({
      query: prompt.query,
      systemPrompt: prompt.systemPrompt,
      initialMessages: messages,
    }) ?? {};
  const modelConfig =
    model &&
    defined({
      model: model.model,
      temperature: model.temp,
      topP: model.top_p,
      thinkingBudget: model.thinkingBudget,
    });
  if (modelConfig) out.modelConfig = modelConfig;
  out.toolConfig = { tools: [...def.toolConfig.tools] };
  const runConfig =
    run && defined({ maxTimeMinutes: run.max_time_minutes, maxTurns: run.max_turns });
  if (runConfig) out.runConfig = runConfig;
  if (def.onReject !== undefined) out.onReject = def.onReject;
  return out;
}
