import * as z from 'zod';

/**
 * One line of a JSONL dataset. Each field carries the message a user sees
 * (after `file:line field:`), so the report says what to write instead.
 */
export const datasetRowSchema = z
  .object(
    {
      id: z.union([z.string(), z.number()], { error: 'expected a string' }).optional(),
      input: z.string({ error: 'expected a string (use "inputs" for an object)' }).optional(),
      inputs: z.record(z.string(), z.unknown(), { error: 'expected an object' }).optional(),
      expected: z.unknown().optional(),
      expected_tool: z
        .union([z.string(), z.array(z.string())], {
          error: 'expected a tool name or a list of names',
        })
        .optional(),
    },
    { error: 'expected a JSON object' },
  )
  .refine((row) => (row.input === undefined) !== (row.inputs === undefined), {
    error: 'give exactly one of "input" (text) or "inputs" (an object)',
  });

export type DatasetRowSchema = typeof datasetRowSchema;
