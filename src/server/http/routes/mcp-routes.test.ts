import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { discoverOAuthServerInfo } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  LATEST_PROTOCOL_VERSION,
  type CallToolResult,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RUN_ID_META } from '../../../mcp/server/agent-tools.js';
import { ScriptedModel, type ScriptedTurn } from '../../../model/scripted-model.js';
import type { ModelRequest } from '../../../model/types.js';
import { openStore } from '../../../store/open-store.js';
import type { Store } from '../../../store/types.js';
import { afterWrites, heardWrites } from '../../../testing/heard-writes.js';
import { ManualClock } from '../../../util/testing/manual-clock.js';
import { createRunService } from '../../core/create-run-service.js';
import type { RunService } from '../../run-service-types.js';
import { createRequestSignals } from '../request-signals.js';
import { startTestServer, type TestServer } from '../testing/test-support.js';
import { mcpRoutes } from './mcp-routes.js';

let dir: string;
let store: Store;
/** Tells the test after each of the service's writes to the store. */
let nextWrite: () => Promise<void>;
let service: RunService;
let server: TestServer;
const users: Record<'ann' | 'eve', { id: string; token: string }> = {
  ann: { id: '', token: '' },
  eve: { id: '', token: '' },
};
const clients: Client[] = [];

/** The prompt (the first text of the conversation) and the last tool answer, as JSON. */
const promptOf = (r: ModelRequest): string => {
  for (const part of r.messages.flatMap((m) => m.parts))
    if (part.kind === 'text' && part.text.trim()) return part.text;
  return '';
};
const toolAnswerOf = (r: ModelRequest): string => {
  const part = r.messages.flatMap((m) => m.parts).findLast((p) => p.kind === 'function_response');
  return part?.kind === 'function_response' ? JSON.stringify(part.response) : '';
};

/** Who waits for the model to be asked a prompt (see `asked`). */
const askedFor = new Map<string, () => void>();
/** Resolves when the model is next asked `prompt`: the run got as far as its model call. */
const asked = (prompt: string): Promise<void> =>
  new Promise((resolve) => askedFor.set(prompt, resolve));

/**
 * "write <path>" asks to write the file, then reports what the tool said;
 * "slow…" answers after 10 s; anything else is greeted.
 */
const model = new ScriptedModel((r): ScriptedTurn => {
  const prompt = promptOf(r);
  askedFor.get(prompt)?.();
  const answered = toolAnswerOf(r);
  if (answered) return { parts: [{ text: `Tool said: ${answered}` }] };
  if (prompt.startsWith('slow')) return { parts: [{ text: 'finally' }], delayMs: 10_000 };
  const path = /^write (\S+)/.exec(prompt)?.[1];
  if (path)
    return { parts: [{ functionCall: { name: 'write_file', args: { path, content: 'hi' } } }] };
  return { parts: [{ text: `Hello! You said: ${prompt}` }] };
});

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-mcp-http-')));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents/greeter.yaml'),
    'name: greeter\ndescription: Greets you.\npromptConfig:\n  systemPrompt: Greet.\n',
  );
  await writeFile(
    join(dir, 'agents/titler.yaml'),
    'name: titler\ndescription: Titles a topic.\ninputConfig:\n  inputs:\n    topic: { type: string, description: The subject, required: true }\n    tags: { type: "string[]" }\npromptConfig:\n  systemPrompt: Title it.\n  query: Title about ${topic}\n',
  );
  await writeFile(
    join(dir, 'agents/writer.yaml'),
    'name: writer\ndescription: Writes files.\ntoolConfig:\n  tools: [write_file]\npromptConfig:\n  systemPrompt: Write.\n',
  );
  store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  const writes = heardWrites(store);
  nextWrite = writes.next;
  service = await createRunService({
    store: writes.store,
    cwd: dir,
    env: { HOME: dir },
    modelClient: model,
  });
  for (const name of ['ann', 'eve'] as const) {
    const user = await store.auth.ensureUser(name);
    users[name] = { id: user.id, token: (await store.auth.createToken(user.id)).token };
  }
  server = await startTestServer(service, { store });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});
afterAll(async () => {
  await server.close();
  await service.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function connect(
  options: { token?: string; elicit?: () => ElicitResult } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${options.token ?? users.ann.token}` } },
  });
  const client = new Client(
    { name: 'http-test', version: '1' },
    { capabilities: options.elicit ? { elicitation: { form: {} } } : {} },
  );
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, () => answer());
  }
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const call = async (client: Client, name: string, prompt: string) =>
  (await client.callTool({ name, arguments: { prompt } })) as CallToolResult;
const text = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};
const mcpHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

describe('/mcp under cadre serve (real run service, SQLite, scripted model, 127.0.0.1)', () => {
  it('refuses a request without a valid bearer token', async () => {
    for (const headers of [mcpHeaders, { ...mcpHeaders, authorization: 'Bearer wrong' }]) {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify(initialize),
      });
      expect(res.status).toBe(401);
    }
    await expect(connect({ token: 'wrong' })).rejects.toThrow();
  });

  it("does not send a client into OAuth discovery: the SDK's probes hear 404, the 401 names no metadata", async () => {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: mcpHeaders,
      body: JSON.stringify(initialize),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate') ?? '').not.toMatch(/resource_metadata/);
    const info = await discoverOAuthServerInfo(new URL(`${server.url}/mcp`));
    expect(info.resourceMetadata).toBeUndefined();
    expect(info.authorizationServerMetadata).toBeUndefined();
    const probe = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`);
    expect(probe.status).toBe(404);
    expect(await probe.json()).toMatchObject({ error: { code: 'no_oauth' } });
  });

  it("lists the server's agents, each taking a prompt", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['greeter', 'titler', 'writer']);
    expect(tools.find((t) => t.name === 'greeter')).toMatchObject({
      description: 'Greets you.',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string' } } },
      annotations: { readOnlyHint: true, destructiveHint: false },
    });
    expect(tools.find((t) => t.name === 'writer')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  it("lists an agent's inputConfig as its input schema, and runs it with those inputs (scripted)", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'titler')?.inputSchema).toEqual({
      type: 'object',
      properties: {
        topic: { type: 'string', description: 'The subject' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['topic'],
    });
    const result = (await client.callTool({
      name: 'titler',
      arguments: { topic: 'tides' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('Hello! You said: Title about tides');
    const refused = (await client.callTool({
      name: 'titler',
      arguments: { tags: ['x'] },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/topic/);
  });

  it("runs an agent as the token's user, stored like any run", async () => {
    const { client } = await connect();
    const progress: string[] = [];
    const result = (await client.callTool(
      { name: 'greeter', arguments: { prompt: 'good morning' } },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? '') },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(progress).toContain('Turn 1');
    expect(text(result)).toBe('Hello! You said: good morning');
    const threads = await service.listThreads(users.ann.id);
    expect(threads.map((t) => t.title)).toContain('good morning');
    expect(await service.listThreads(users.eve.id)).toEqual([]);
  });

  it('asks the client to approve, then resolves the approval through the service', async () => {
    let asked = 0;
    const { client } = await connect({
      elicit: () => {
        asked += 1;
        return { action: 'accept', content: { decision: 'approve' } };
      },
    });
    const result = await call(client, 'writer', 'write approved.txt');
    expect(result.isError).toBeFalsy();
    expect(asked).toBe(1);
    expect(text(result)).toMatch(/^Tool said: .*approved\.txt/);
    expect(await readFile(join(dir, 'approved.txt'), 'utf8')).toBe('hi');
    expect(await service.pendingApprovals(users.ann.id)).toEqual([]);
    // The run is the user's, with its approval and the write in the audit trail.
    const runId = String(result._meta?.[RUN_ID_META]);
    const run = await service.getRun(users.ann.id, runId);
    expect(run?.run.status).toBe('completed');
    expect(run?.approvals).toEqual([expect.objectContaining({ tool: 'write_file' })]);
    const trail = await service.audit(users.ann.id, runId);
    expect(trail.filter((e) => e.toolName === 'write_file').length).toBeGreaterThanOrEqual(2);
  });

  it('passes a rejection on to the agent and writes nothing', async () => {
    const { client } = await connect({
      elicit: () => ({ action: 'accept', content: { decision: 'reject', reason: 'not today' } }),
    });
    const result = await call(client, 'writer', 'write rejected.txt');
    expect(text(result)).toContain('not today');
    expect(await exists(join(dir, 'rejected.txt'))).toBe(false);
  });

  it('without elicitation, names the run and the approval for a person to decide', async () => {
    const { client } = await connect();
    const result = await call(client, 'writer', 'write waiting.txt');
    expect(result.isError).toBe(true);
    const [pending] = await service.pendingApprovals(users.ann.id);
    expect(pending).toBeDefined();
    expect(text(result)).toContain(`Run ${pending!.runId} is waiting for approval`);
    expect(text(result)).toContain(`(approval ${pending!.approvalId})`);
    expect(text(result)).toContain(`${server.url}/runs/${pending!.runId}`);
    expect(await exists(join(dir, 'waiting.txt'))).toBe(false);
    await service.cancelRun(users.ann.id, pending!.runId);
  });

  it('leaves the approval to a person when the question is dismissed', async () => {
    const { client } = await connect({ elicit: () => ({ action: 'cancel' }) });
    const result = await call(client, 'writer', 'write dismissed.txt');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/is waiting for approval, and the person dismissed the question/);
    const runId = String(result._meta?.[RUN_ID_META]);
    expect((await service.getRun(users.ann.id, runId))?.run.status).toBe('awaiting_confirmation');
    expect(await exists(join(dir, 'dismissed.txt'))).toBe(false);
    await service.cancelRun(users.ann.id, runId);
  });

  it('cancels the run when the client cancels the call', async () => {
    const { client } = await connect();
    const controller = new AbortController();
    const inModel = asked('slow one');
    const pending = client.callTool(
      { name: 'greeter', arguments: { prompt: 'slow one' } },
      undefined,
      { signal: controller.signal },
    );
    await inModel;
    controller.abort();
    await expect(pending).rejects.toThrow();
    // Stored after a moment, or once it ends: looked for again after each write, not on a timer.
    const runId = await afterWrites(nextWrite, async () => {
      const thread = (await service.listThreads(users.ann.id)).find((t) => t.title === 'slow one');
      return thread && (await service.getThread(users.ann.id, thread.id))?.messages[0]?.runId;
    });
    // Followed until it ends, as a client would: its changes say when.
    expect(await service.followRun(users.ann.id, runId, 0, {})).toMatchObject({
      status: 'cancelled',
    });
    expect((await service.getRun(users.ann.id, runId))?.run.errorCode).toBe('cancelled');
  });

  it("keeps a session to its user: another user's token does not reach it", async () => {
    const { transport } = await connect();
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        ...mcpHeaders,
        authorization: `Bearer ${users.eve.token}`,
        'mcp-session-id': transport.sessionId ?? '',
        'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
  });

  it('closes promptly with sessions open', async () => {
    const other = await startTestServer(service, { store });
    const transport = new StreamableHTTPClientTransport(new URL(`${other.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${users.ann.token}` } },
    });
    const client = new Client({ name: 'closing', version: '1' });
    await client.connect(transport);
    await client.listTools();
    const started = performance.now();
    await other.close();
    expect(performance.now() - started).toBeLessThan(2_000);
    await client.close();
  });

  it('closes idle sessions, and a user over the limit loses their longest idle one', async () => {
    const clock = new ManualClock();
    const app = Fastify();
    app.decorateRequest('userId', '');
    app.addHook('onRequest', async (request) => {
      request.userId = users.ann.id;
    });
    mcpRoutes(
      app,
      { service, requestSignal: createRequestSignals(new AbortController().signal) },
      { idleMs: 1_500, maxSessionsPerUser: 1, clock },
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`;
      const list = (sessionId: string) =>
        fetch(url, {
          method: 'POST',
          headers: {
            ...mcpHeaders,
            'mcp-session-id': sessionId,
            'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        });
      const start = async (): Promise<string> => {
        const res = await fetch(url, {
          method: 'POST',
          headers: mcpHeaders,
          body: JSON.stringify(initialize),
        });
        await res.text();
        return res.headers.get('mcp-session-id') ?? '';
      };
      const first = await start();
      expect((await list(first)).status).toBe(200);
      const second = await start();
      expect((await list(first)).status).toBe(404);
      expect((await list(second)).status).toBe(200);
      // The sweep (every second) keeps a session untouched for less than idleMs...
      await clock.waiting();
      clock.advance(1_000);
      await clock.waiting();
      expect((await list(second)).status).toBe(200);
      // ...and closes one untouched for longer.
      clock.advance(2_000);
      await clock.waiting();
      expect((await list(second)).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('ends a session on DELETE', async () => {
    const { transport } = await connect();
    const sessionId = transport.sessionId ?? '';
    await transport.terminateSession();
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        ...mcpHeaders,
        authorization: `Bearer ${users.ann.token}`,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
  });
});
