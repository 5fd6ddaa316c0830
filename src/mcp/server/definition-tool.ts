import type { JsonSchema } from '../../model/types.js';
import { inputsJsonSchema } from '../../runtime/prompt/inputs.js';
import type { AgentDefinition } from '../../definition/types.js';
import { agentAnnotations } from './agent-annotations.js';
import { isPlainObject, objectSchema, type AgentTool } from './agent-tools.js';

/** What an agent without an inputConfig takes (and so every code agent): `{ prompt: string }`. */
export const PROMPT_SCHEMA: AgentTool['inputSchema'] = objectSchema(
  inputsJsonSchema({ name: 'any', description: '', promptConfig: {}, toolConfig: { tools: [] } }),
);

/**
 * A definition as an MCP tool: its inputs as JSON Schema, its output's when
 * it has one, and whether it only reads (`isRead` knows the tool pool).
 */
export function definitionTool(
  definition: AgentDefinition,
  isRead: (tool: string) => boolean = () => false,
): AgentTool {
  const output = structuredOutput(definition);
  return {
    name: definition.name,
    description: definition.description,
    ...(definition.displayName ? { title: definition.displayName } : {}),
    inputSchema: objectSchema(inputsJsonSchema(definition)),
    ...(output ? { outputSchema: output.schema } : {}),
    annotations: agentAnnotations(definition.toolConfig.tools, isRead),
  };
}

/** How a definition's output becomes `structuredContent`, which MCP wants to be an object. */
export interface StructuredOutput {
  schema: AgentTool['inputSchema'];
  /** The run's `output` as the structured content. */
  content: (output: unknown) => Record<string, unknown> | undefined;
}

/**
 * An output schema of type object is the structured content as it is; any
 * other schema (or a plain `outputName`) is wrapped as `{ <outputName>: value }`;
 * named outputs (`emit_value`) are an object of their strings. Agents that
 * answer in plain text have none.
 */
export function structuredOutput(definition: AgentDefinition): StructuredOutput | undefined {
  const config = definition.outputConfig;
  if (!config || definition.router) return undefined;
  if (config.schema || config.outputName) {
    const schema = config.schema
      ? config.schema.kind === 'json_schema'
        ? config.schema.schema
        : config.schema.jsonSchema
      : { type: 'string' };
    if (!schema) return undefined; // a Zod schema with no JSON Schema form
    if (schema.type === 'object')
      return {
        schema: objectSchema(schema),
        content: (output) => (isPlainObject(output) ? output : undefined),
      };
    const key = config.outputName ?? 'result';
    return {
      schema: { type: 'object', properties: { [key]: stripMeta(schema) }, required: [key] },
      content: (output) => ({ [key]: output }),
    };
  }
  if (config.outputs && Object.keys(config.outputs).length > 0) {
    const properties = Object.fromEntries(
      Object.entries(config.outputs).map(([name, description]) => [
        name,
        { type: 'string', description },
      ]),
    );
    return {
      schema: { type: 'object', properties },
      content: (output) => (isPlainObject(output) ? output : undefined),
    };
  }
  return undefined;
}

function stripMeta(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}
