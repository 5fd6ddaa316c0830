/**
 * The Zod schema of trajectory schema_version 1: what loading checks, and
 * the source of `spec/trajectory.schema.json`. Imported lazily (zod is a
 * heavy import), so recording never pays for it.
 */
import * as z from 'zod';

const json = z.record(z.string(), z.unknown());
const signature = { signature: z.string().optional() };

const usage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  thoughtTokens: z.number(),
  totalTokens: z.number(),
});

const functionCall = z.object({
  kind: z.literal('function_call'),
  id: z.string(),
  name: z.string(),
  args: json,
  ...signature,
});

const part = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string(), ...signature }),
  z.object({ kind: z.literal('thought'), text: z.string(), ...signature }),
  functionCall,
  z.object({
    kind: z.literal('function_response'),
    id: z.string(),
    name: z.string(),
    response: z.union([z.object({ output: z.unknown() }), z.object({ error: z.string() })]),
  }),
]);

const request = z.object({
  model: z.string(),
  systemInstruction: z.string().optional(),
  messages: z.array(z.object({ role: z.enum(['user', 'model']), parts: z.array(part) })),
  tools: z.array(z.object({ name: z.string(), description: z.string(), parameters: json })),
  config: z.object({
    temperature: z.number().optional(),
    topP: z.number().optional(),
    thinkingBudget: z.number().optional(),
    maxOutputTokens: z.number().optional(),
    topK: z.number().optional(),
    stopSequences: z.array(z.string()).optional(),
  }),
});

const offset = { offset_ms: z.number().describe('Milliseconds after the call started.') };
const chunk = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), ...signature, ...offset }),
  z.object({ type: z.literal('thought'), text: z.string(), ...signature, ...offset }),
  z.object({ type: z.literal('function_call'), call: functionCall, ...offset }),
  z.object({ type: z.literal('usage'), usage, ...offset }),
  z.object({
    type: z.literal('retry'),
    attempt: z.number(),
    delayMs: z.number(),
    reason: z.string(),
    ...offset,
  }),
  z.object({ type: z.literal('finish'), reason: z.string(), ...offset }),
]);

const recordedError = z.object({
  name: z.string(),
  message: z.string(),
  code: z.string().optional(),
  status: z.number().optional(),
  retryable: z.boolean().optional(),
});

const modelStep = z.object({
  index: z.number().int().min(0),
  started_at: z.string(),
  duration_ms: z.number(),
  request: request.describe('The normalised request the model saw.'),
  request_hash: z
    .string()
    .describe(
      'sha256 of the canonical JSON of request, fresh ids in tool answers masked; replay matches on it.',
    ),
  chunks: z.array(chunk),
  usage: usage.optional(),
  retries: z.array(z.object({ attempt: z.number(), delay_ms: z.number(), reason: z.string() })),
  error: recordedError.optional(),
});

const toolStep = z.object({
  index: z.number().int().min(0),
  call_id: z.string().optional(),
  tool: z.string(),
  args: json,
  args_hash: z.string(),
  side_effect: z.boolean(),
  execution_id: z.string(),
  path: z.array(z.string()),
  started_at: z.string(),
  duration_ms: z.number(),
  outcome: z.discriminatedUnion('status', [
    z.object({ status: z.literal('ok'), output: z.unknown().optional() }),
    z.object({ status: z.literal('error'), error: recordedError }),
  ]),
  emitted: z
    .array(z.looseObject({ type: z.string(), message: z.string(), data: json.optional() }))
    .optional(),
});

const decision = z.union([
  z.object({ kind: z.literal('approve') }),
  z.object({ kind: z.literal('approve_always') }),
  z.object({ kind: z.literal('reject'), feedback: z.string().optional() }),
  z.object({ kind: z.literal('unattended') }),
  z.object({ kind: z.literal('pause') }),
  // Trajectories recorded before the decision to wait was called `pause`; read as `pause`.
  z.object({ kind: z.literal('defer') }),
]);

const terminateReason = z.enum(['GOAL', 'ERROR', 'TIMEOUT', 'MAX_TURNS', 'MAX_COST', 'ABORTED']);

const event = z.looseObject({
  type: z.string().describe('Well-known or not: unknown types are kept verbatim.'),
  message: z.string(),
  timestamp: z.string(),
  data: json,
  runId: z.string(),
  executionId: z.string(),
  parentExecutionId: z.string().optional(),
  depth: z.number(),
  path: z.array(z.string()),
  seq: z.number(),
});

const finalResult = z.looseObject({
  run_id: z.string(),
  agent: z.string(),
  terminate_reason: terminateReason,
  output: z.unknown(),
  final_message: z.string(),
  usage,
  turns: z.number(),
});

export const trajectorySchemaV1 = z.object({
  schema_version: z.literal(1),
  id: z.string(),
  run_id: z.string(),
  agent: z.object({
    name: z.string(),
    definition: json.describe('The normalised definition (functions dropped, Zod as JSON Schema).'),
    definition_hash: z.string(),
    dropped: z.array(z.string()),
    source: z.string().optional(),
  }),
  inputs: json,
  model: z.object({
    name: z.string(),
    provider: z.string(),
    config: request.shape.config,
    resolved: z.record(z.string(), z.string()),
  }),
  tools: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      parameters: json,
      side_effect: z.boolean(),
      default_approval: z.enum(['auto', 'require']).optional(),
    }),
  ),
  model_steps: z.array(modelStep),
  tool_steps: z.array(toolStep),
  approvals: z.array(
    z.object({ call_id: z.string(), tool: z.string(), execution_id: z.string(), decision }),
  ),
  events: z.array(event),
  metadata: z.object({
    started_at: z.string(),
    finished_at: z.string(),
    duration_ms: z.number(),
    total_tokens: z.number(),
    usage,
    tokens_unavailable_count: z.number(),
    terminate_reason: terminateReason,
    model: z.string(),
    final_result: finalResult,
    recorder: z.string(),
  }),
});

const TRAJECTORY_SCHEMA_ID = 'urn:cadre:schema:trajectory:v1';

/** JSON Schema (draft 2020-12) of the format, as shipped in `spec/trajectory.schema.json`. */
export function trajectoryJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(trajectorySchemaV1, {
    target: 'draft-2020-12',
    io: 'input',
  }) as Record<string, unknown>;
  return {
    $schema,
    $id: TRAJECTORY_SCHEMA_ID,
    title: 'Cadre trajectory',
    description:
      'A recorded agent run: model steps, tool steps, approvals and events, for offline replay and evals.',
    ...rest,
  };
}
