import * as z from 'zod';

const texts = z.array(z.string({ error: 'expected a string' }), {
  error: 'expected a list of strings',
});
const textMap = z.record(z.string(), z.coerce.string(), {
  error: 'expected a mapping of names to strings',
});

/**
 * Lenient on purpose: foreign configs carry keys Cadre ignores (`description`,
 * `oauth`, and Gemini CLI's `trust: true`, which never skips an approval here).
 */
const rawServer = z
  .object(
    {
      type: z
        .enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse'], {
          error: 'expected one of stdio, http, sse',
        })
        .optional(),
      command: z.string({ error: 'expected a string' }).min(1).optional(),
      args: texts.optional(),
      env: textMap.optional(),
      cwd: z.string({ error: 'expected a string' }).optional(),
      url: z.string({ error: 'expected a string' }).optional(),
      httpUrl: z.string({ error: 'expected a string' }).optional(),
      headers: textMap.optional(),
      timeout: z.number({ error: 'expected a number of milliseconds' }).positive().optional(),
      includeTools: texts.optional(),
      excludeTools: texts.optional(),
      trust: z
        .union([z.boolean(), z.literal('readOnlyHints')], {
          error: 'expected "readOnlyHints" (or Gemini CLI\'s true / false, which Cadre ignores)',
        })
        .optional()
        .describe(
          '"readOnlyHints": tools this server marks readOnlyHint run without approval. Otherwise every tool of the server asks.',
        ),
      include_tools: texts.optional(),
      exclude_tools: texts.optional(),
    },
    { error: 'expected a mapping' },
  )
  .describe('An MCP server: `command` (+ `args`, `env`) or `url` (+ `headers`).');

/** The JSON Schema side of `mcpServers` (name → server), for the definition schema. */
export const mcpServersField = () =>
  z
    .record(z.string(), rawServer, { error: 'expected a mapping of server names to servers' })
    .describe('MCP servers this agent may use, by name: stdio `command` or remote `url`.');

export type RawMcpServer = z.output<typeof rawServer>;
