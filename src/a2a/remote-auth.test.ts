import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEntry, AgentLookup } from '../contracts/agent.js';
import { loadDefinition } from '../definition/load-definition-file.js';
import type { AgentDefinition } from '../definition/types.js';
import { ValidationError } from '../errors/validation-error.js';
import { ScriptedModel } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import { run } from '../agents/run-verbs.js';
import { createProjectGate } from '../trust/project-gate.js';
import { startSdkTestServer, type SdkTestServer } from './testing/sdk-test-server.js';

const TOKEN_VAR = 'CADRE_TEST_REMOTE_TOKEN';
const KEY_VAR = 'CADRE_TEST_REMOTE_KEY';
const saved = { token: process.env[TOKEN_VAR], key: process.env[KEY_VAR] };

let remote: SdkTestServer;
/** A card at `cardHost` whose JSON-RPC endpoint is on `remote` (another origin). */
let cardHost: SdkTestServer;
let dir: string;

beforeAll(async () => {
  process.env[TOKEN_VAR] = 'tok-123';
  process.env[KEY_VAR] = 'key-456';
  const answer = (text: string) => ({ state: 'completed' as const, text: `remote says: ${text}` });
  remote = await startSdkTestServer(answer);
  cardHost = await startSdkTestServer(answer, '1.0', new URL(remote.cardUrl).origin);
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-a2a-auth-'));
});
afterAll(async () => {
  for (const [name, value] of [
    [TOKEN_VAR, saved.token],
    [KEY_VAR, saved.key],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await remote.close();
  await cardHost.close();
  await rm(dir, { recursive: true, force: true });
});

const gemini = (cardUrl: string, auth: string) =>
  `---\nkind: remote\nname: weather\ndescription: Weather.\nagent_card_url: ${cardUrl}\nauth:\n${auth}---\n`;

async function load(file: string, text: string, options: { trusted?: boolean } = {}) {
  await writeFile(path.join(dir, file), text);
  const gate =
    options.trusted === false ? createProjectGate({ root: dir, trusted: {} }) : undefined;
  return loadDefinition(file, { cwd: dir, ...(gate ? { gate } : {}) });
}

const parent: AgentDefinition = {
  name: 'boss',
  description: 'Delegates.',
  promptConfig: { systemPrompt: 'You delegate.' },
  toolConfig: { tools: ['weather'] },
};
const lastResponse = (request: ModelRequest | undefined): string => {
  const part = request?.messages.at(-1)?.parts.find((p) => p.kind === 'function_response');
  return JSON.stringify(part?.kind === 'function_response' ? part.response : undefined);
};

/** The parent (scripted model) asks `weather` once and repeats what came back. */
async function ask(weather: AgentDefinition, task: string): Promise<string> {
  const model = new ScriptedModel((request) =>
    request.messages.at(-1)?.parts.some((p) => p.kind === 'function_response')
      ? { parts: [{ text: 'done' }] }
      : { parts: [{ functionCall: { name: 'weather', args: { prompt: task } } }] },
  );
  const entries = new Map<string, AgentEntry>(
    [parent, weather].map((d) => [d.name, { kind: 'definition', definition: d }]),
  );
  const agents: AgentLookup = { get: (n) => entries.get(n), names: () => [...entries.keys()] };
  await run(parent, { model, agents, inputs: { prompt: 'weather?' } });
  return lastResponse(model.requests.at(-1));
}

describe('remote agent auth: read from the environment or a file, never from the agent file', () => {
  it("Gemini CLI's `type: http, scheme: Bearer, token: $VAR` sends the variable's value as a bearer token (scripted)", async () => {
    const { definition } = await load(
      'bearer.md',
      gemini(remote.cardUrl, `  type: http\n  scheme: Bearer\n  token: $${TOKEN_VAR}\n`),
    );
    const before = remote.requests.length;
    expect(await ask(definition, 'sunny?')).toContain('remote says: sunny?');
    const sent = remote.requests.slice(before);
    expect(sent.map((r) => r.authorization)).toEqual(sent.map(() => 'Bearer tok-123'));
    expect(sent.some((r) => r.path === '/rpc')).toBe(true);
  });

  it("Cadre's `headers_env` and `bearer_file` (a file beside the agent), and Gemini's apiKey, send their headers (scripted)", async () => {
    await writeFile(path.join(dir, 'token.txt'), 'from-file\n');
    const { definition } = await load(
      'cadre-form.md',
      gemini(
        remote.cardUrl,
        `  bearer_file: token.txt\n  headers_env:\n    X-API-Key: ${KEY_VAR}\n`,
      ),
    );
    let before = remote.requests.length;
    await ask(definition, 'windy?');
    expect(remote.requests.slice(before).at(-1)).toMatchObject({
      authorization: 'Bearer from-file',
      apiKey: 'key-456',
    });
    const apiKey = await load(
      'api-key.md',
      gemini(remote.cardUrl, `  type: apiKey\n  key: \${${KEY_VAR}}\n`),
    );
    before = remote.requests.length;
    await ask(apiKey.definition, 'hail?');
    expect(remote.requests.slice(before).at(-1)?.apiKey).toBe('key-456');
  });

  it('an ADK RemoteA2aAgent takes the same `auth` (bearer_env)', async () => {
    const { definition } = await load(
      'weather.yaml',
      `agent_class: RemoteA2aAgent\nname: weather\ndescription: Weather.\nagent_card: ${remote.cardUrl}\nauth:\n  bearer_env: ${TOKEN_VAR}\n`,
    );
    expect(definition.remote?.auth?.headers).toEqual([
      {
        name: 'Authorization',
        prefix: 'Bearer ',
        value: { kind: 'secret', source: { env: TOKEN_VAR } },
      },
    ]);
  });

  it('a secret written in the file, or a command to run, is refused at its line; an unsupported type warns', async () => {
    const literal = load(
      'literal.md',
      gemini(remote.cardUrl, '  type: http\n  scheme: Bearer\n  token: sk-live-abc\n'),
    );
    await expect(literal).rejects.toThrow(ValidationError);
    const issue = await literal.then(
      () => undefined,
      (error: ValidationError) => error.issues[0],
    );
    expect(issue).toMatchObject({ path: 'auth.token', line: 9 });
    expect(issue?.message).toContain('never read from the agent file');
    expect(JSON.stringify(issue)).not.toContain('sk-live-abc');
    await expect(
      load('command.md', gemini(remote.cardUrl, '  type: apiKey\n  key: "!cat ~/.token"\n')),
    ).rejects.toThrow(/commands are not run/);
    const oauth = await load('oauth.md', gemini(remote.cardUrl, '  type: oauth\n'));
    expect(oauth.definition.remote?.auth).toBeUndefined();
    expect(oauth.warnings.map((w) => w.message).join()).toContain('not supported');
  });

  it('an unset variable fails the call, naming the variable and sending nothing', async () => {
    const { definition } = await load(
      'unset.md',
      gemini(remote.cardUrl, '  bearer_env: CADRE_TEST_NEVER_SET\n'),
    );
    const before = remote.requests.length;
    expect(await ask(definition, 'fog?')).toContain('CADRE_TEST_NEVER_SET, which is not set');
    expect(remote.requests.length).toBe(before);
  });
});

describe('attacks on remote agent auth', () => {
  it('an untrusted agent file cannot send a host secret: the call is refused and the server hears nothing', async () => {
    const loaded = await load(
      'untrusted.md',
      gemini(remote.cardUrl, `  bearer_env: ${TOKEN_VAR}\n`),
      { trusted: false },
    );
    expect(loaded.definition.remote?.auth).toBeUndefined();
    expect(loaded.warnings.map((w) => w.message).join()).toContain(`$${TOKEN_VAR}`);
    const before = remote.requests.length;
    const answer = await ask(loaded.definition, 'leak?');
    expect(answer).toContain('not trusted');
    expect(answer).not.toContain('tok-123');
    expect(remote.requests.length).toBe(before);
  });

  it('an untrusted ADK RemoteA2aAgent loses its auth the same way, and a trusted one keeps it', async () => {
    const adk = `agent_class: RemoteA2aAgent\nname: weather\ndescription: Weather.\nagent_card: ${remote.cardUrl}\nauth:\n  bearer_env: ${TOKEN_VAR}\n`;
    const untrusted = await load('adk-untrusted.yaml', adk, { trusted: false });
    expect(untrusted.definition.remote?.auth).toBeUndefined();
    expect(untrusted.definition.remote?.authRefused).toContain('not trusted');
    await writeFile(path.join(dir, 'adk-trusted.yaml'), adk);
    const sha256 = createHash('sha256').update(adk).digest('hex');
    const gate = createProjectGate({
      root: dir,
      trusted: { 'adk-trusted.yaml': { sha256, trustedAt: '' } },
    });
    const trusted = await loadDefinition('adk-trusted.yaml', { cwd: dir, gate });
    expect(trusted.definition.remote?.auth?.headers[0]?.name).toBe('Authorization');
  });

  it('a card naming an endpoint on another origin gets no token there: only the card’s own origin does', async () => {
    const { definition } = await load(
      'elsewhere.md',
      gemini(cardHost.cardUrl, `  bearer_env: ${TOKEN_VAR}\n`),
    );
    const cardBefore = cardHost.requests.length;
    const rpcBefore = remote.requests.length;
    expect(await ask(definition, 'where?')).toContain('remote says: where?');
    expect(cardHost.requests.slice(cardBefore).map((r) => r.authorization)).toEqual([
      'Bearer tok-123',
    ]);
    const rpc = remote.requests.slice(rpcBefore);
    expect(rpc.map((r) => r.path)).toEqual(['/rpc']);
    expect(rpc[0]?.authorization).toBeUndefined();
  });
});
