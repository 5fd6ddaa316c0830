import * as z from 'zod';
import { decodeApprovalCursor } from './approval-cursor.js';
import { HttpProblem } from './http-problem.js';

const nonBlank = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => s.trim().length > 0, 'must not be empty');
/** Ids and names are opaque; the bound only keeps absurd input away from the store. */
const id = nonBlank(200);

/** Structured inputs by name; the agent's inputConfig checks their values. */
const runInputs = z
  .record(z.string().min(1).max(200), z.json())
  .refine((value) => Object.keys(value).length <= 100, 'must have at most 100 fields');

/**
 * `POST /api/agent/run(/stream)`: the published `{prompt, threadId?}` plus `agent?`, `record?` and
 * `inputs?` (an agent with an inputConfig); a prompt or inputs, nothing else.
 */
export const runBody = z
  .strictObject({
    prompt: nonBlank(100_000).optional(),
    threadId: id.optional(),
    agent: id.optional(),
    /** Keep a trajectory of this run in the server's `.cadre/runs/`. */
    record: z.boolean().optional(),
    inputs: runInputs.optional(),
  })
  .refine((body) => body.prompt !== undefined || body.inputs !== undefined, {
    path: ['prompt'],
    message: 'is required (or inputs)',
  });

/** `POST /api/runs/:id/fork(/stream)`: go on from model step `step` (0-based) with the prompt edited. */
export const forkBody = z.strictObject({
  step: z.int().min(0).max(100_000),
  prompt: nonBlank(100_000),
});

/** `POST /api/agent/approvals/resolve(/stream)`. */
export const resolveBody = z.strictObject({
  approvalId: id,
  decision: z.enum(['reject', 'approve_once', 'approve_and_always_allow_recipient']),
  feedback: z.string().max(10_000).optional(),
});

export const idParams = z.strictObject({ id });

/** Query strings are lenient about extra keys (cache busters), strict about the ones we read. */
export const eventsQuery = z.object({
  after: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a non-negative integer')
    .transform(Number)
    .optional(),
});

export const auditQuery = z.object({ runId: id });

export const DEFAULT_PENDING_PAGE = 50;
const MAX_PENDING_PAGE = 200;

/** `GET /api/agent/approvals/pending?cursor=…&limit=…`: a page of 1 to 200, 50 by default. */
export const pendingQuery = z.object({
  cursor: z
    .string()
    .transform((cursor, ctx) => {
      const after = decodeApprovalCursor(cursor);
      if (after === undefined)
        ctx.addIssue({ code: 'custom', message: 'is not a cursor this server gave' });
      return after ?? '';
    })
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `must be an integer from 1 to ${MAX_PENDING_PAGE}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_PENDING_PAGE, `must be from 1 to ${MAX_PENDING_PAGE}`)
    .optional(),
});

const MAX_MESSAGE = 300;

/** Parses a request part or throws a 400 that says which field is wrong (never echoing values). */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  part: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const text = result.error.issues
    .slice(0, 3)
    .map((issue) => `${[part, ...issue.path.map(String)].join('.')}: ${issue.message}`)
    .join('; ');
  throw new HttpProblem(
    400,
    'validation_error',
    text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text,
  );
}

/** `POST /api/sign-in`: the one-time code of `cadre serve`'s link. */
export const signInBody = z.strictObject({ code: z.string().min(1).max(200) });
