import type { AgentView } from '../../run-service-types.js';
import { canonicalJson } from '../../../util/canonical-json.js';
import { HttpProblem } from '../http-problem.js';

/**
 * Settings an OpenAI client may send that an agent's definition decides for
 * itself (its model, sampling, tools): not applied, and named in the answer
 * (`cadre.ignored` and the `x-cadre-ignored` header) so nothing is dropped
 * in silence.
 */
export const CHAT_SETTINGS = [
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'functions',
  'function_call',
  'reasoning_effort',
  'service_tier',
  'modalities',
  'audio',
  'prediction',
] as const;

export const RESPONSES_SETTINGS = [
  'temperature',
  'top_p',
  'max_output_tokens',
  'top_logprobs',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning',
  'truncation',
  'service_tier',
] as const;

export const IGNORED_HEADER = 'x-cadre-ignored';

/** The settings of `names` the body sets (null counts as not set). */
export function ignoredSettings(body: unknown, names: readonly string[]): string[] {
  if (body === null || typeof body !== 'object') return [];
  const record = body as Record<string, unknown>;
  return names.filter((name) => record[name] !== undefined && record[name] !== null);
}

/** What format the client asks the answer in (`response_format`, or the Responses API's `text.format`). */
export type AnswerFormat =
  { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; schema: unknown };

/** Reads the chat route's `response_format`; a shape it does not know is a 400. */
export function chatAnswerFormat(body: unknown): AnswerFormat {
  const format = field(body, 'response_format');
  if (format === undefined || format === null) return { type: 'text' };
  return formatOf(format, 'body.response_format', field(format, 'json_schema'));
}

/** Reads the Responses API's `text.format`. */
export function responsesAnswerFormat(body: unknown): AnswerFormat {
  const format = field(field(body, 'text'), 'format');
  if (format === undefined || format === null) return { type: 'text' };
  return formatOf(format, 'body.text.format', format);
}

/**
 * A JSON answer comes from an agent whose definition gives its answer a
 * schema: `json_object` takes that schema, `json_schema` must be that schema.
 * Anything else is refused before a run starts, saying what to do instead:
 * an agent's answer format is its definition's, not the request's.
 */
export function checkAnswerFormat(format: AnswerFormat, agent: AgentView, at: string): void {
  if (format.type === 'text') return;
  if (agent.outputSchema === undefined)
    throw new HttpProblem(
      400,
      'validation_error',
      `${at}: the agent '${agent.name}' answers in text (its definition sets no outputConfig schema), so it cannot answer as ${format.type}. Leave ${at} out, or call an agent whose definition has an output schema.`,
    );
  if (format.type === 'json_object') return;
  if (canonicalJson(format.schema) !== canonicalJson(agent.outputSchema))
    throw new HttpProblem(
      400,
      'validation_error',
      `${at}: the agent '${agent.name}' answers with its own output schema, which differs from the one asked for; send that schema (GET /api/agents shows it as outputSchema) or json_object.`,
    );
}

function formatOf(format: unknown, at: string, holder: unknown): AnswerFormat {
  const type = field(format, 'type');
  switch (type) {
    case 'text':
    case 'json_object':
      return { type };
    case 'json_schema': {
      const schema = field(holder, 'schema');
      if (schema === undefined || schema === null || typeof schema !== 'object')
        throw new HttpProblem(400, 'validation_error', `${at}: json_schema needs a schema object.`);
      return { type, schema };
    }
    default:
      throw new HttpProblem(
        400,
        'validation_error',
        `${at}.type: must be text, json_object or json_schema.`,
      );
  }
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object'
    ? (value as Record<string, unknown>)[name]
    : undefined;
}
