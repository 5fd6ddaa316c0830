import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { createRunService } from '../../server/core/create-run-service.js';
import { startTestServer, type TestServer } from '../../server/http/testing/test-support.js';
import type { RunService } from '../../server/run-service-types.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { RUN_ID_META } from './agent-tools.js';

let dir: string;
let store: Store;
let service: RunService;
let server: TestServer;
const users: Record<'ann' | 'eve', { id: string; token: string }> = {
  ann: { id: '', token: '' },
  eve: { id: '', token: '' },
};
const clients: Client[] = [];

/** Scripted: greets with the first text it is given. */
const model = new ScriptedModel((request) => {
  const first = request.messages.flatMap((m) => m.parts).find((p) => p.kind === 'text');
  return { parts: [{ text: `Hello! You said: ${first?.kind === 'text' ? first.text : ''}` }] };
});

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'cadre-mcp-res-')));
  await mkdir(join(dir, 'agents'));
  await writeFile(
    join(dir, 'agents/titler.yaml'),
    'name: titler\ndescription: Titles a topic.\ninputConfig:\n  inputs:\n    topic: { type: string, description: The subject, required: true }\npromptConfig:\n  systemPrompt: Title it.\n  query: Title about ${topic}\n',
  );
  await writeFile(
    join(dir, 'agents/greeter.yaml'),
    'name: greeter\ndescription: Greets you.\npromptConfig:\n  systemPrompt: Greet.\n',
  );
  store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  service = await createRunService({ store, cwd: dir, env: { HOME: dir }, modelClient: model });
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

async function connect(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'http-test', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** Ann runs the greeter over MCP; answers the run's id from the result's _meta. */
async function annRun(client: Client): Promise<string> {
  const result = (await client.callTool({
    name: 'greeter',
    arguments: { prompt: 'good morning' },
  })) as CallToolResult;
  const runId = result._meta?.[RUN_ID_META];
  expect(typeof runId).toBe('string');
  return String(runId);
}

describe('/mcp prompts and resources under cadre serve (real run service, SQLite, scripted model, 127.0.0.1)', () => {
  it('lists and fetches agents as prompts, the query filled with the arguments', async () => {
    const client = await connect(users.ann.token);
    const { prompts } = await client.listPrompts();
    expect(prompts.find((p) => p.name === 'titler')?.arguments).toEqual([
      { name: 'topic', description: 'The subject', required: true },
    ]);
    const got = await client.getPrompt({ name: 'titler', arguments: { topic: 'tides' } });
    expect(got.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'topic: tides' } },
    ]);
  });

  it('lists the agents as resources and offers run and trajectory templates', async () => {
    const client = await connect(users.ann.token);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'cadre://agents/greeter',
      'cadre://agents/titler',
    ]);
    const agent = await client.readResource({ uri: 'cadre://agents/titler' });
    const first = agent.contents[0];
    expect(first && 'text' in first ? JSON.parse(first.text) : undefined).toMatchObject({
      name: 'titler',
      inputs: [{ name: 'topic', required: true }],
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'cadre://agents/{name}',
      'cadre://runs/{runId}',
      'cadre://runs/{runId}/trajectory',
    ]);
  });

  it("reads the caller's own run: status, summary and events", async () => {
    const client = await connect(users.ann.token);
    const runId = await annRun(client);
    const read = await client.readResource({ uri: `cadre://runs/${runId}` });
    const first = read.contents[0];
    const run = JSON.parse(first && 'text' in first ? first.text : '{}') as {
      runId: string;
      status: string;
      summary: string;
      events: Array<{ type: string }>;
    };
    expect(run).toMatchObject({
      runId,
      status: 'completed',
      summary: 'Hello! You said: good morning',
    });
    expect(run.events.map((e) => e.type)).toContain('final_result');
  });

  it("attack: another user cannot read Ann's run or its trajectory, and hears the same not-found as for a run that does not exist", async () => {
    const ann = await connect(users.ann.token);
    const runId = await annRun(ann);
    const eve = await connect(users.eve.token);
    const attempts = [
      `cadre://runs/${runId}`,
      `cadre://runs/${runId}/trajectory`,
      `cadre://runs/${encodeURIComponent(runId)}`,
      'cadre://runs/no-such-run',
    ];
    const answers = await Promise.all(
      attempts.map((uri) =>
        eve.readResource({ uri }).then(
          () => 'read',
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        ),
      ),
    );
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/-32002: .*Resource not found$/);
    // Ann's run was never recorded: its trajectory is not found, for her too.
    await expect(ann.readResource({ uri: `cadre://runs/${runId}/trajectory` })).rejects.toThrow(
      /-32002/,
    );
  });
});
