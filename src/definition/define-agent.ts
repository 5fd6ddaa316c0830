import type * as z from 'zod';
import type { JsonSchema } from '../model/types.js';

/** Marks objects made by defineAgent; `Symbol.for` so copies of this module (jiti, bundles) agree. */
const DEFINED_AGENT: unique symbol = Symbol.for('cadre.definedAgent') as never;

export interface AuthoringInputArgument {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'string[]' | 'number[]' | 'object' | 'array';
  description?: string;
  required?: boolean;
}

/** The spec's authoring shape (000 §3) plus Cadre's extensions, typed by the output schema `S`. */
export interface AgentAuthoring<S extends z.ZodType> {
  name: string;
  displayName?: string;
  description: string;
  inputConfig?: { inputs: Record<string, AuthoringInputArgument> } | { inputSchema: JsonSchema };
  outputConfig?: {
    outputName?: string;
    description?: string;
    /** A Zod schema (typed), a JSON Schema, or the name of a registered schema. */
    schema?: S | JsonSchema | string;
    /** Named outputs (emit_value): name → description. */
    outputs?: Record<string, string>;
  };
  processOutput?: (output: z.infer<S>) => string;
  promptConfig?: {
    query?: string;
    systemPrompt?: string;
    initialMessages?: { role: 'user' | 'model'; content: string }[];
  };
  modelConfig?: { model?: string; temp?: number; top_p?: number; thinkingBudget?: number };
  toolConfig?: { tools: string[] };
  runConfig?: { max_time_minutes?: number; max_turns?: number };
  onReject?: 'continue' | 'fail';
}

export type DefinedAgent<S extends z.ZodType> = AgentAuthoring<S> & {
  readonly [DEFINED_AGENT]: true;
};

/**
 * Types a definition written in TS: `processOutput` receives `z.infer` of
 * the output schema. Checking happens when it is loaded
 * (`loadDefinition('agent.ts')` or `validateDefinitionObject(defineAgent(...))`).
 */
export function defineAgent<S extends z.ZodType = z.ZodUnknown>(
  definition: AgentAuthoring<S>,
): DefinedAgent<S> {
  return Object.defineProperty({ ...definition }, DEFINED_AGENT, {
    value: true,
    enumerable: false,
  }) as DefinedAgent<S>;
}

export const isDefinedAgent = (value: unknown): value is DefinedAgent<z.ZodType> =>
  typeof value === 'object' &&
  value !== null &&
  (value as Record<symbol, unknown>)[DEFINED_AGENT] === true;
