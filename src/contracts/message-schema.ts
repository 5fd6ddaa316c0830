import * as z from 'zod';

/*
 * The shape of a stored conversation message and of an approval's binding:
 * the run state's schema and the store's run job (a fork's conversation, an
 * approval's decision) check them the same way. Objects are loose, so a
 * field added later as optional passes through.
 */

const record = z.record(z.string(), z.unknown());
const signature = { signature: z.string().optional() };

const inlineImage = z.looseObject({ mimeType: z.string(), data: z.string() });

export const functionCallSchema = z.looseObject({
  kind: z.literal('function_call'),
  id: z.string(),
  name: z.string(),
  args: record,
  ...signature,
});

export const functionResponseSchema = z.looseObject({
  kind: z.literal('function_response'),
  id: z.string(),
  name: z.string(),
  response: z.union([z.looseObject({ output: z.unknown() }), z.looseObject({ error: z.string() })]),
  images: z.array(inlineImage).optional(),
});

const part = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('text'), text: z.string(), ...signature }),
  z.looseObject({ kind: z.literal('thought'), text: z.string(), ...signature }),
  functionCallSchema,
  functionResponseSchema,
]);

export const messageSchema = z.looseObject({
  role: z.enum(['user', 'model']),
  parts: z.array(part),
});

/** What an approval is bound to (`ApprovalBinding`). */
export const approvalBindingSchema = z.looseObject({
  tool: z.string(),
  inputHash: z.string(),
  definitionHash: z.string(),
  toolClass: z.string(),
});
