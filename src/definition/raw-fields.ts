import * as z from 'zod';
import { isZodLike } from './zod-like.js';
import type { ZodLike } from './types.js';
import { describeValue } from './describe-value.js';
import { didYouMean } from './did-you-mean.js';

/**
 * Field builders for the raw schema. Each one words its own error as
 * `expected <what>, got <value>` so users read one style of message.
 */
type RawIssue = { input?: unknown; code?: string };

export const expected =
  (what: string) =>
  (issue: RawIssue): string =>
    issue.input === undefined && issue.code === 'invalid_type'
      ? 'is required'
      : `expected ${what}, got ${describeValue(issue.input)}`;

export const text = (description: string) =>
  z.string({ error: expected('a string') }).describe(description);

export const nonEmptyText = (description: string) =>
  z
    .string({ error: expected('a non-empty string') })
    .min(1, { error: expected('a non-empty string') })
    .describe(description);

export const positiveInt = (description: string) => {
  const error = expected('a positive integer');
  return z.number({ error }).int({ error }).positive({ error }).describe(description);
};

export const numberBetween = (min: number, max: number, description: string) => {
  const error = expected(`a number between ${min} and ${max}`);
  return z.number({ error }).min(min, { error }).max(max, { error }).describe(description);
};

export const thinkingBudget = (description: string) => {
  const error = expected('an integer >= -1 (-1 lets the model decide, 0 turns thinking off)');
  return z.number({ error }).int({ error }).min(-1, { error }).describe(description);
};

export const oneOf = <const T extends readonly [string, ...string[]]>(
  values: T,
  description: string,
) =>
  z
    .enum(values, {
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : `expected one of ${values.join(', ')}, got ${describeValue(issue.input)}${
              typeof issue.input === 'string' ? didYouMean(issue.input, values) : ''
            }`,
    })
    .describe(description);

/** `kind`: a built-in one, or the name of a kind the run registers (checked when it runs). */
export const kindName = (builtIn: readonly string[], description: string) => {
  const error = expected(`${builtIn.join(', ')} or the name of a registered agent kind`);
  return z
    .string({ error })
    .regex(/^[a-z][a-z0-9_-]{0,63}$/, { error })
    .describe(description);
};

export const stringList = (description: string) =>
  z.array(text('A name.'), { error: expected('a list of strings') }).describe(description);

export const stringMap = <T extends z.ZodType>(value: T, what: string, description: string) =>
  z.record(z.string(), value, { error: expected(what) }).describe(description);

/** A JSON Schema given inline: any mapping (Ajv checks it is a valid schema later). */
export const jsonSchemaObject = (description: string) =>
  z
    .record(z.string(), z.unknown(), { error: expected('a JSON Schema mapping') })
    .describe(description);

/** Meta key of fields only TS definitions can hold; the JSON Schema export drops them. */
export const CODE_ONLY = 'x-cadre-code-only';

export const zodSchema = () =>
  z.custom<ZodLike>(isZodLike, { error: expected('a Zod schema') }).meta({ [CODE_ONLY]: true });

export const outputFormatter = () =>
  z
    .custom<(output: never) => string>((value) => typeof value === 'function', {
      error: expected('a function (only in TS definitions)'),
    })
    .meta({
      [CODE_ONLY]: true,
      description: 'Formats the structured output as a string for the parent agent.',
    });

export const strictObject = <S extends z.core.$ZodLooseShape>(shape: S, description: string) =>
  z
    .strictObject(shape, {
      // Unknown keys are reported per key with a did-you-mean (zod-issues.ts), not here.
      error: (issue) => (issue.code === 'invalid_type' ? expected('a mapping')(issue) : undefined),
    })
    .describe(description);
