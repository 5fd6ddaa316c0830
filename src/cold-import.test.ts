import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { eagerImportsOf } from './testing/static-imports.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Packages the entry must load only on first use: each costs 20-100 ms of start-up. */
const LAZY = [
  'yaml',
  'ajv',
  'jiti',
  'zod',
  'tinyglobby',
  'picomatch',
  '@google/genai',
  'openai',
  'commander',
  'kysely',
  'libsql',
  'pg',
  'nodemailer',
  'tsdav',
  'fastify',
  'pino',
  'turndown',
  'shell-quote',
  'ipaddr.js',
  '@modelcontextprotocol/sdk',
  '@anthropic-ai/sdk',
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@opentelemetry/semantic-conventions',
  '@fastify/static',
  '@fastify/rate-limit',
  'node-llama-cpp',
];
/** Tracing loads only when OTEL_EXPORTER_OTLP_ENDPOINT switches it on. */
const OTEL = LAZY.filter((name) => name.startsWith('@opentelemetry/'));

test.each([
  ['the package entry', 'index.ts', LAZY],
  [
    'the definition entry (yaml, Ajv, jiti on first use)',
    'definition/index.ts',
    ['yaml', 'ajv', 'jiti'],
  ],
  [
    'the store entry (no database code until openStore)',
    'store/index.ts',
    ['kysely', 'libsql', 'pg'],
  ],
  ['cadre run (traced only when asked)', 'cli/commands/run.ts', OTEL],
  ['cadre chat (traced only when asked)', 'cli/commands/chat.ts', OTEL],
  ['the server core (traced only when asked)', 'server/core/create-run-service.ts', OTEL],
])('%s loads heavy dependencies lazily', (_name, entry, lazy) => {
  const { visited, offenders } = eagerImportsOf(path.join(HERE, entry), lazy);
  expect(visited).toBeGreaterThan(3);
  expect(offenders).toEqual([]);
});

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const manifest = JSON.parse(
  readFileSync(path.join(HERE, '..', 'package.json'), 'utf8'),
) as Manifest;
/** Left out of `npm install cadre`: the server, the store, the SDKs, mail, calendar, tracing. */
const OPTIONAL = Object.keys(manifest.peerDependencies ?? {});

test('the heavy stacks are optional peers, installed in a checkout only', () => {
  expect(OPTIONAL).toEqual(
    expect.arrayContaining(['fastify', 'kysely', '@google/genai', 'openai']),
  );
  for (const name of OPTIONAL) {
    expect(manifest.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
    expect(manifest.dependencies?.[name], name).toBeUndefined();
    expect(manifest.devDependencies?.[name], name).toBe(manifest.peerDependencies?.[name]);
  }
});

test.each([
  'index.ts',
  'definition/index.ts',
  'cli/main.ts',
  'cli/commands/run.ts',
  'cli/commands/chat.ts',
  'cli/commands/validate.ts',
  'cli/commands/agents.ts',
  'cli/commands/eval.ts',
  'cli/commands/replay.ts',
  'cli/commands/schema.ts',
])('%s imports no optional peer up front, so it works in a plain install', (entry) => {
  const { visited, offenders } = eagerImportsOf(path.join(HERE, entry), OPTIONAL);
  expect(visited).toBeGreaterThan(1);
  expect(offenders).toEqual([]);
});

interface Exports {
  exports?: Record<string, { types?: string; default?: string }>;
}

test.each(['trajectory', 'eval'])(
  'cadre/%s is an entry of its own, and the package entry loads none of its code',
  (name) => {
    const { exports } = JSON.parse(
      readFileSync(path.join(HERE, '..', 'package.json'), 'utf8'),
    ) as Exports;
    expect(exports?.[`./${name}`]).toEqual({
      types: `./dist/src/${name}/index.d.ts`,
      default: `./dist/src/${name}/index.js`,
    });
    expect(readFileSync(path.join(HERE, name, 'index.ts'), 'utf8')).toMatch(/^export /m);
    const { files } = eagerImportsOf(path.join(HERE, 'index.ts'), []);
    expect(files.filter((file) => file.startsWith(`${name}/`))).toEqual([]);
  },
);

test('the package entry loads routing, the built-in agents, compaction, provider clients and approval bindings only when a run needs them', () => {
  const { files } = eagerImportsOf(path.join(HERE, 'index.ts'), []);
  const firstUse = [
    'runtime/router/router-agent.ts',
    'runtime/router/router-prompts.ts',
    'runtime/router/call-model-once.ts',
    'agents/builtin/deep-research.ts',
    'agents/builtin/react.ts',
    'agents/builtin/model-call.ts',
    'runtime/compaction/compact-conversation.ts',
    'runtime/compaction/split-conversation.ts',
    // A provider's client loads when its model first answers (lazy-client.ts).
    'model/gemini-client.ts',
    'model/openai-client.ts',
    'model/anthropic-client.ts',
    'model/local-client.ts',
    // An approval's binding (and the mail and calendar normalisers) with the first call a person is asked about.
    'runtime/calls/approval-binding.ts',
    'policy/normalize-call.ts',
    'tools/mail/mail-args.ts',
    'tools/calendar/calendar-args.ts',
    // The MCP hub, with the first grant of an MCP tool.
    'mcp/client/mcp-hub.ts',
  ];
  expect(files).toEqual(expect.arrayContaining(['runtime/compaction/plan-compaction.ts']));
  expect(files.filter((file) => firstUse.includes(file))).toEqual([]);
});

test('the package entry loads no built-in tool module until the tool is first called', () => {
  const { files } = eagerImportsOf(path.join(HERE, 'index.ts'), []);
  // Their specs (builtin-tools.ts, builtin-tool-specs.ts) load; the tools' own modules wait for a call.
  const firstCall = [
    'tools/builtin/ls.ts',
    'tools/builtin/read-file.ts',
    'tools/builtin/glob.ts',
    'tools/builtin/grep.ts',
    'tools/builtin/write-file.ts',
    'tools/builtin/edit-file.ts',
    'tools/shell/shell-tool.ts',
    'tools/web/web-fetch-tool.ts',
    'tools/todo/todo-tool.ts',
    // Pattern checks load when the gate first checks a narrowed call.
    'tools/shell/command-patterns.ts',
    'tools/web/domain-patterns.ts',
  ];
  expect(files).toEqual(expect.arrayContaining(['tools/builtin/builtin-tools.ts']));
  expect(files.filter((file) => firstCall.includes(file))).toEqual([]);
  expect(
    files.filter((file) => /^tools\/(builtin|shell|web|todo)\/.*-run\.ts$/.test(file)),
  ).toEqual([]);
});

test.each([
  ['node:fs', 'its ESM form reads every lazy export, ~3 ms'],
  ['node:fs/promises', '~1.5 ms, for discovery and project model files only'],
  ['node:crypto', '~4 ms, for ids and hashes a run makes'],
])('the package entry imports %s only on first use (%s)', (builtin) => {
  const { offenders } = eagerImportsOf(path.join(HERE, 'index.ts'), [builtin]);
  expect(offenders).toEqual([]);
});
