/**
 * Agent definitions: load, validate, author, export. Nothing here imports
 * yaml, Ajv or jiti at module load; the loaders pull them in on first use.
 */
export * from './types.js';
export * from './load-definition.js';
export {
  defineAgent,
  isDefinedAgent,
  type AgentAuthoring,
  type DefinedAgent,
} from './define-agent.js';
export { SchemaRegistry } from './schema-registry.js';
export { definitionJsonSchema, DEFINITION_SCHEMA_ID } from './definition-json-schema.js';
export { toProtoJson, type ProtoAgentDefinition } from './proto-json.js';
export { DEFAULT_KNOWN_TOOLS, canonicalToolName } from './tool-names.js';
export { rawDefinitionSchema, type RawDefinition } from './raw-definition-schema.js';
