import * as z from 'zod';
import { approvalBindingSchema, messageSchema } from '../contracts/message-schema.js';
import { StoredDataError } from '../errors/stored-data-error.js';
import type { Usage } from '../model/types.js';
import type { RunJob } from './records.js';

/*
 * Schemas for the JSON columns the store reads back: what a row holds is
 * checked where it leaves the database, so a damaged row fails naming its
 * field instead of travelling on as a cast. Objects are loose, so fields a
 * newer writer added pass through.
 */

const record = z.record(z.string(), z.unknown());

/** A stored event as a row holds it (see stored-event.ts); `data` is checked per type when read. */
export const storedEventSchema = z.looseObject({
  type: z.string().min(1),
  /** Absent for a delta whose message repeated its text, and for a custom event's own name. */
  message: z.string().optional(),
  name: z.string().optional(),
  timestamp: z.string(),
  runId: z.string(),
  executionId: z.string(),
  parentExecutionId: z.string().optional(),
  depth: z.number().int().nonnegative(),
  path: z.array(z.string()),
  seq: z.number().int(),
  data: record,
  storedAnswer: z
    .looseObject({
      in: z.enum(['reply', 'final_message']),
      fields: z.array(z.enum(['final_message', 'content', 'output'])),
    })
    .optional(),
});

/** A count left out reads as 0: rows written by hand or by early tests hold `{}`. */
const usageSchema = z.looseObject({
  inputTokens: z.number().default(0),
  outputTokens: z.number().default(0),
  thoughtTokens: z.number().default(0),
  totalTokens: z.number().default(0),
  cachedInputTokens: z.number().optional(),
  costUsd: z.number().optional(),
});

/** An approval's decision in a resume job (`ResumeDecision`). */
const decisionSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('approve'), binding: approvalBindingSchema.optional() }),
  z.looseObject({ kind: z.literal('reject'), feedback: z.string().optional() }),
  z.looseObject({ kind: z.literal('ask_again'), reason: z.string() }),
]);

/** A run's next step (`RunJob`): start with a prompt, or resume with the people's decisions. */
const runJobSchema = z.discriminatedUnion('kind', [
  z.looseObject({
    kind: z.literal('start'),
    prompt: z.string(),
    messageSeq: z.number().int(),
    record: z.boolean().optional(),
    inputs: record.optional(),
    conversation: z.array(messageSchema).optional(),
    trace: z.looseObject({ traceparent: z.string(), tracestate: z.string().optional() }).optional(),
  }),
  z.looseObject({ kind: z.literal('resume'), decisions: z.record(z.string(), decisionSchema) }),
]);

/** A JSON column's text parsed and checked: the value, or a StoredDataError naming `what` and the field. */
export function parseStored<T extends z.ZodType>(
  what: string,
  schema: T,
  text: string,
): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new StoredDataError(what, [{ path: '', message: 'not JSON' }]);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new StoredDataError(
    what,
    parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    })),
  );
}

/** A run's summed usage column. */
export const parseStoredUsage = (text: string): Usage =>
  parseStored('run usage', usageSchema, text);

/** A call's arguments (actions.args_json): always an object. */
export const parseStoredArgs = (text: string): Record<string, unknown> =>
  parseStored('call arguments', record, text);

/** A run's job column (runs.job), checked when the row is read: a worker acts on it. */
export const parseStoredJob = (runId: string, text: string): RunJob =>
  // Checked above; the loose objects' extra fields are what a newer writer added.
  parseStored(`run job of run ${runId}`, runJobSchema, text) as RunJob;
