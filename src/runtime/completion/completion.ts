import type { ZodType } from 'zod';
import type { JsonSchema, ToolDeclaration } from '../../model/types.js';
import type { AgentDefinition, ZodLike } from '../../definition/types.js';
import type { SchemaValidator, ValidateFn } from './schema-validator.js';
import { COMPLETE_TASK, EMIT_VALUE } from '../../contracts/finish-tools.js';

/**
 * How a run ends (DESIGN §1): an output schema → complete_task; named
 * outputs → emit_value then stop calling tools; neither → a plain answer.
 */
export type CompletionProtocol =
  | {
      kind: 'complete_task';
      outputName: string;
      validate: ValidateFn;
      declaration: ToolDeclaration;
      /** Named outputs may be emitted along the way too. */
      outputs?: Record<string, string>;
    }
  | { kind: 'emit_value'; outputs: Record<string, string> }
  | { kind: 'answer' };

/** A Zod output schema is converted to JSON Schema first (zod loads then); nothing else is awaited. */
export function completionProtocol(
  definition: AgentDefinition,
  validator: SchemaValidator,
): CompletionProtocol | Promise<CompletionProtocol> {
  const config = definition.outputConfig;
  const outputs =
    config?.outputs && Object.keys(config.outputs).length > 0 ? config.outputs : undefined;
  if (config && (config.schema || config.outputName)) {
    const schema = config.schema;
    if (!schema)
      return taskProtocol(config, outputs, TEXT_OUTPUT, validator.forJsonSchema(TEXT_OUTPUT));
    if (schema.kind === 'json_schema')
      return taskProtocol(
        config,
        outputs,
        stripMeta(schema.schema),
        validator.forJsonSchema(schema.schema),
      );
    return zodJsonSchema(schema.schema).then((jsonSchema) =>
      taskProtocol(config, outputs, jsonSchema, validator.forZod(schema.schema)),
    );
  }
  if (outputs) return { kind: 'emit_value', outputs };
  return { kind: 'answer' };
}

/** The output of a task with an output name but no schema: text. */
const TEXT_OUTPUT: JsonSchema = Object.freeze({ type: 'string' });

function taskProtocol(
  config: NonNullable<AgentDefinition['outputConfig']>,
  outputs: Record<string, string> | undefined,
  jsonSchema: JsonSchema,
  validate: ValidateFn,
): CompletionProtocol {
  const outputName = config.outputName ?? 'result';
  const parameters: JsonSchema = {
    type: 'object',
    properties: {
      [outputName]: {
        ...jsonSchema,
        description: config.description ?? `The final ${outputName}.`,
      },
    },
    required: [outputName],
  };
  return {
    kind: 'complete_task',
    outputName,
    validate,
    outputs,
    declaration: {
      name: COMPLETE_TASK,
      description:
        'Call this tool once, when the task is done, with the final output. This is the only way to finish; do not call it together with other tools.',
      parameters,
    },
  };
}

async function zodJsonSchema(schema: ZodLike): Promise<JsonSchema> {
  const { z } = await import('zod');
  return stripMeta(z.toJSONSchema(schema as unknown as ZodType) as JsonSchema);
}

function stripMeta(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

export function emitValueDeclaration(outputs: Record<string, string>): ToolDeclaration {
  return {
    name: EMIT_VALUE,
    description:
      'Record one named output of this task. Call it once per output; when every output is emitted, stop calling tools.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', enum: Object.keys(outputs), description: 'Which output.' },
        value: { type: 'string', description: 'Its value.' },
      },
      required: ['name', 'value'],
      additionalProperties: false,
    },
  };
}

export function outputsOf(protocol: CompletionProtocol): Record<string, string> | undefined {
  return protocol.kind === 'answer' ? undefined : protocol.outputs;
}

/** Completion tools the model is offered (all of them on the grace turn, and nothing else). */
export function completionDeclarations(protocol: CompletionProtocol): ToolDeclaration[] {
  const declarations: ToolDeclaration[] = [];
  if (protocol.kind === 'complete_task') declarations.push(protocol.declaration);
  const outputs = outputsOf(protocol);
  if (outputs) declarations.push(emitValueDeclaration(outputs));
  return declarations;
}

const NON_INTERACTIVE =
  'You are running non-interactively: nobody will answer questions mid-task, so make reasonable assumptions and keep going.';
const ANSWER_DIRECTLY = 'When you have the answer, reply with it directly, without calling a tool.';
/** The rules of a plain answer, the same for every run: built once. */
const ANSWER_RULES = `# Rules\n- ${NON_INTERACTIVE}\n- ${ANSWER_DIRECTLY}`;

/** Rules the runtime appends to the author's system prompt. */
export function completionRules(protocol: CompletionProtocol): string {
  if (protocol.kind === 'answer') return ANSWER_RULES;
  const rules = [NON_INTERACTIVE];
  const outputs = outputsOf(protocol);
  if (outputs) {
    rules.push(
      `Before you finish you MUST emit each of these outputs with \`${EMIT_VALUE}\`:\n${Object.entries(
        outputs,
      )
        .map(([name, description]) => `- ${name}: ${description}`)
        .join('\n')}`,
    );
  }
  switch (protocol.kind) {
    case 'complete_task':
      rules.push(
        `When the task is done you MUST call \`${COMPLETE_TASK}\` with \`${protocol.outputName}\`; that is the only way to finish. Do not call it together with other tools.`,
      );
      break;
    case 'emit_value':
      rules.push(
        'When every output is emitted, stop calling tools and reply with a short summary.',
      );
      break;
    default:
      protocol satisfies never;
  }
  return `# Rules\n${rules.map((r) => `- ${r}`).join('\n')}`;
}

export function missingOutputs(
  protocol: CompletionProtocol,
  emitted: Readonly<Record<string, unknown>>,
): string[] {
  const outputs = outputsOf(protocol);
  return outputs ? Object.keys(outputs).filter((name) => !Object.hasOwn(emitted, name)) : [];
}
