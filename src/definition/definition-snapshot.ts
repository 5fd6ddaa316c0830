import { ConfigError } from '../errors/cadre-error.js';
import type { AgentDefinition, OutputSchema } from './types.js';
import { jsonClone, sha256Of } from '../util/json-hash.js';

type JsonObject = Record<string, unknown>;

/** A definition as plain JSON, pinned in trajectories and approval bindings by its hash. */
export interface DefinitionSnapshot {
  name: string;
  /** The normalised definition as JSON: functions left out, Zod schemas as JSON Schema. */
  definition: JsonObject;
  /** `sha256:` of the canonical JSON of `definition`. */
  definition_hash: string;
  /** Code-only members left out of the snapshot, e.g. `processOutput`. */
  dropped: string[];
  /** The file it was loaded from, when known. */
  source?: string;
}

/**
 * The definition as plain JSON, so a trajectory pins exactly what ran:
 * a Zod output schema becomes its JSON Schema (the same conversion the
 * runtime uses for the complete_task declaration) and functions are left
 * out, by name, in `dropped`.
 */
export async function snapshotDefinition(definition: AgentDefinition): Promise<DefinitionSnapshot> {
  const dropped: string[] = [];
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(definition)) {
    // Where it was loaded from is kept beside the snapshot, not in it: moving a file changes nothing.
    if (key === 'source') continue;
    if (typeof value === 'function') dropped.push(key);
    else if (value !== undefined) copy[key] = value;
  }
  const schema = definition.outputConfig?.schema;
  if (schema?.kind === 'zod') {
    copy.outputConfig = { ...definition.outputConfig, schema: await zodAsJsonSchema(schema) };
  }
  const snapshot = jsonClone(copy);
  return {
    name: definition.name,
    definition: snapshot,
    definition_hash: sha256Of(snapshot),
    dropped,
    ...(definition.source?.file ? { source: definition.source.file } : {}),
  };
}

/** The hash a definition would get in a trajectory; compare it with `agent.definition_hash`. */
export async function definitionHash(definition: AgentDefinition): Promise<string> {
  return (await snapshotDefinition(definition)).definition_hash;
}

/**
 * A runnable definition from a snapshot. Dropped code (processOutput) is
 * gone, so the final message of a structured output is its JSON.
 */
export function definitionFromSnapshot(snapshot: DefinitionSnapshot): AgentDefinition {
  const d = snapshot.definition;
  const ok =
    typeof d.name === 'string' &&
    typeof d.promptConfig === 'object' &&
    d.promptConfig !== null &&
    Array.isArray((d.toolConfig as { tools?: unknown } | undefined)?.tools);
  if (!ok)
    throw new ConfigError(
      `The trajectory's definition snapshot of '${snapshot.name}' is incomplete.`,
    );
  return jsonClone(d) as unknown as AgentDefinition;
}

async function zodAsJsonSchema(
  schema: Extract<OutputSchema, { kind: 'zod' }>,
): Promise<OutputSchema> {
  const { z } = await import('zod');
  const json = z.toJSONSchema(schema.schema as unknown as Parameters<typeof z.toJSONSchema>[0]);
  return {
    kind: 'json_schema',
    schema: json as JsonObject,
    origin: schema.origin ? `zod:${schema.origin}` : 'zod',
  };
}
