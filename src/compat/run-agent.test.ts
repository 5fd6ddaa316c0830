import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../model/scripted-model.js';
import type { ModelRequest } from '../model/types.js';
import { parseChatHistory } from './chat-history.js';
import { threadId } from 'node:worker_threads';
import type { CadreEvent } from '../events/types.js';
import { cachedResolver } from '../model/cached-resolver.js';
import { resolveModelClient } from '../model/resolve-model.js';
import { runAgent, run_agent, type RunAgentOptions } from './run-agent.js';
import { startFakeGemini } from '../testing/fake-gemini-server.js';

/** The agent-format interface's published JSON Schema, verbatim. */
const SEED_SCHEMA = {
  type: 'object',
  required: ['content', 'response_time_secs', 'traces'],
  properties: {
    content: { type: 'string' },
    response_time_secs: { type: 'number' },
    traces: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tool', 'output'],
        properties: {
          tool: { type: 'string' },
          output: { type: 'string' },
          args: { type: 'object' },
          duration_secs: { type: 'number' },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: true,
};

const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  parts: [{ functionCall: { name, args } }],
});
const answered = (r: ModelRequest): boolean =>
  r.messages.at(-1)?.parts.some((p) => p.kind === 'function_response') ?? false;

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cadre-runagent-'));
  await writeFile(join(dir, 'notes.txt'), 'buy milk\n');
  return dir;
}

describe('runAgent: the agent-format minimal interface (scripted model responses)', () => {
  it('with only GEMINI_API_KEY in the environment, as the README shows, it reaches Gemini (fake server)', async () => {
    const server = await startFakeGemini({ turns: [{ parts: [{ text: 'Omelette.' }] }] });
    try {
      const result = await runAgent(
        'What should I cook tonight?',
        undefined,
        undefined,
        {},
        {
          env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: server.baseUrl },
          cwd: await workspace(),
        },
      );
      expect(result.content).toBe('Omelette.');
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('returns content, wall-clock response_time_secs and traces that validate against the published schema', async () => {
    const cwd = await workspace();
    const model = new ScriptedModel((r) =>
      answered(r)
        ? { parts: [{ text: 'You need milk.' }], delayMs: 50 }
        : call('read_file', { path: 'notes.txt' }),
    );
    const result = await runAgent(
      'What do I need?',
      undefined,
      undefined,
      {},
      { cwd, env: {}, model },
    );
    expect(result.content).toBe('You need milk.');
    expect(result.response_time_secs).toBeGreaterThanOrEqual(0.05);
    expect(result.traces).toEqual([
      {
        tool: 'read_file',
        args: { path: 'notes.txt' },
        output: expect.stringContaining('buy milk'),
        duration_secs: expect.any(Number),
      },
    ]);
    expect(result.called_tools).toEqual(['read_file']);
    const validate = new Ajv().compile(SEED_SCHEMA);
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
    expect(run_agent).toBe(runAgent);
  });

  it('keeps the traces of two concurrent calls apart', async () => {
    const cwd = await workspace();
    const model = new ScriptedModel((r) => {
      const asked = JSON.stringify(r.messages[0]);
      if (answered(r)) return { parts: [{ text: asked.includes('first') ? 'one' : 'two' }] };
      return {
        ...call(
          asked.includes('first') ? 'ls' : 'read_file',
          asked.includes('first') ? { path: '.' } : { path: 'notes.txt' },
        ),
        delayMs: 20,
      };
    });
    const [a, b] = await Promise.all([
      runAgent('first question', undefined, undefined, {}, { cwd, env: {}, model }),
      runAgent('second question', undefined, undefined, {}, { cwd, env: {}, model }),
    ]);
    expect(a.traces.map((t) => t.tool)).toEqual(['ls']);
    expect(b.traces.map((t) => t.tool)).toEqual(['read_file']);
    expect([a.content, b.content]).toEqual(['one', 'two']);
  });

  it('turns chat_history lines into real turns and memory into context', async () => {
    const model = new ScriptedModel([{ parts: [{ text: 'ok' }] }]);
    await runAgent(
      'And tomorrow?',
      'user: What is the weather?\nassistant: Sunny today.\nIt may change.',
      'Lives in Lyon',
      {},
      { cwd: await workspace(), env: {}, model },
    );
    const request = model.requests[0];
    expect(
      request?.messages.map((m) => [m.role, m.parts[0]?.kind === 'text' ? m.parts[0].text : '']),
    ).toEqual([
      ['user', 'What is the weather?'],
      ['model', 'Sunny today.\nIt may change.'],
      ['user', 'And tomorrow?'],
    ]);
    expect(request?.systemInstruction).toContain('Lives in Lyon');
  });

  it('uses ACTIVE_AGENT_PATH, and config beats the environment', async () => {
    const cwd = await workspace();
    await mkdir(join(cwd, 'domains'));
    await writeFile(
      join(cwd, 'domains/slow.md'),
      '---\nname: slow\ndescription: Slow domain\ntools: []\n---\nROLE:slow\n',
    );
    await writeFile(
      join(cwd, 'router.yaml'),
      'name: hub\ndescription: Routes\nkind: router\ndomains: [slow]\npromptConfig:\n  systemPrompt: ROLE:router\n',
    );
    const model = new ScriptedModel((r) => {
      if (r.tools.some((t) => t.name === 'route'))
        return call('route', { targets: [{ domain: 'slow', intent: 'x' }] });
      if (r.systemInstruction?.includes('ROLE:slow'))
        return { parts: [{ text: 'late' }], delayMs: 3000 };
      return { parts: [{ text: 'synthesized' }] };
    });
    // Real time on purpose: the router's domain timeout is a real timer, and ending well before
    // the environment's 30 s is how the config's 0.1 s shows it won.
    const started = performance.now();
    const result = await runAgent(
      'hi',
      undefined,
      undefined,
      { tool_root: 'domains', domain_timeout_secs: 0.1, unknown_key: 1 },
      {
        cwd,
        env: { ACTIVE_AGENT_PATH: 'router.yaml', DOMAIN_TIMEOUT_SECS: '30' },
        model,
      },
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result.agent).toBe('hub');
    expect(result.content).toBe('synthesized');
    expect(JSON.stringify(model.requests.at(-1)?.messages)).toContain('slow: timed out');
  });

  it('runs an ACTIVE_AGENT_PATH module that exports run_agent, timing it by the wall clock', async () => {
    const cwd = await workspace();
    // The module's 30 ms pause stands for its work: the wall-clock timing measures it, not a test wait.
    await writeFile(
      join(cwd, 'agent.mjs'),
      'export async function run_agent(prompt) { await new Promise((r) => setTimeout(r, 30)); return { content: `echo: ${prompt}`, response_time_secs: 99, traces: [{ tool: "A", output: "1" }, { tool: "B", output: "2" }, { tool: "A", output: "3" }], extra: true }; }\n',
    );
    const result = await runAgent(
      'ping',
      undefined,
      undefined,
      {},
      { cwd, env: { ACTIVE_AGENT_PATH: 'agent.mjs' } },
    );
    expect(result.content).toBe('echo: ping');
    expect(result.response_time_secs).toBeLessThan(5);
    expect(result.called_tools).toEqual(['A', 'B']);
    expect(result.extra).toBe(true);
  });
});

describe('tool_root tool files (scripted model responses)', () => {
  it('loads *.tool modules under tool_root so agents there can use them', async () => {
    const cwd = await workspace();
    await mkdir(join(cwd, 'root/weather'), { recursive: true });
    await writeFile(
      join(cwd, 'root/weather/forecast.tool.mjs'),
      'export default { name: "forecast", description: "Forecast for a city", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, sideEffect: false, execute: async ({ city }) => ({ city, sky: "clear" }) };\n',
    );
    await writeFile(
      join(cwd, 'root/weather/weather.md'),
      '---\nname: weather\ndescription: Weather\ntools: forecast\n---\nUse the forecast tool.\n',
    );
    const model = new ScriptedModel((r) =>
      answered(r) ? { parts: [{ text: 'Clear skies.' }] } : call('forecast', { city: 'Lyon' }),
    );
    const result = await runAgent(
      'weather in Lyon?',
      undefined,
      undefined,
      { tool_root: 'root/weather' },
      { cwd, env: { ACTIVE_AGENT_PATH: 'root/weather/weather.md' }, model },
    );
    expect(result.content).toBe('Clear skies.');
    expect(result.traces).toEqual([
      {
        tool: 'forecast',
        args: { city: 'Lyon' },
        output: '{"city":"Lyon","sky":"clear"}',
        duration_secs: expect.any(Number),
      },
    ]);
  });
});

/**
 * A router that sends one question to a `files` domain run in a worker thread
 * (scripted models: the router routes then answers `answer`; the domain calls
 * ls then says `domainText`).
 */
async function runThreadedRouter(
  answer: string,
  domainText: string,
  extra: Partial<RunAgentOptions> = {},
): Promise<{ result: Awaited<ReturnType<typeof runAgent>>; events: CadreEvent[] }> {
  const cwd = await workspace();
  await mkdir(join(cwd, 'domains'));
  await writeFile(
    join(cwd, 'domains/files.md'),
    '---\nname: files\ndescription: Knows the files\ntools: LS\n---\nList files.\n',
  );
  await writeFile(
    join(cwd, 'router.yaml'),
    'name: hub\ndescription: Routes\nkind: router\ndomains: [files]\n',
  );
  const route = { targets: [{ domain: 'files', intent: 'list' }] };
  await writeFile(
    join(cwd, 'router-turns.json'),
    JSON.stringify([
      { parts: [{ functionCall: { name: 'route', args: route } }] },
      { parts: [{ text: answer }] },
    ]),
  );
  await writeFile(
    join(cwd, 'domain-turns.json'),
    JSON.stringify([
      { parts: [{ functionCall: { name: 'ls', args: { path: '.' } } }] },
      { parts: [{ text: domainText }] },
    ]),
  );
  const events: CadreEvent[] = [];
  const env = { ACTIVE_AGENT_PATH: 'router.yaml' };
  const resolveOnce = cachedResolver((m: string) => resolveModelClient(m, env, { cwd }));
  const result = await runAgent(
    'what files?',
    undefined,
    undefined,
    {
      tool_root: 'domains',
      execution_mode: 'threads',
      model_overrides: { domain: `scripted:${join(cwd, 'domain-turns.json')}` },
    },
    {
      cwd,
      env,
      defaultModel: `scripted:${join(cwd, 'router-turns.json')}`,
      resolveModel: resolveOnce,
      onEvent: (e) => events.push(e),
      ...extra,
    },
  );
  return { result, events };
}

describe('execution_mode: threads (scripted model files)', () => {
  it('runs each domain in a worker thread; its events join the stream and the result comes back', async () => {
    const { result, events } = await runThreadedRouter('You have notes.txt.', 'notes.txt is there');
    expect(result.content).toBe('You have notes.txt.');
    expect(result.traces.map((t) => t.tool)).toEqual(['ls']);
    const thread = events.find((e) => e.type === 'thread_started');
    expect(thread?.data.threadId).toEqual(expect.any(Number));
    expect(thread?.data.threadId).not.toBe(threadId);
    const domainEvents = events.filter((e) => e.depth === 1 && e.path.join('/') === 'hub/files');
    expect(domainEvents.map((e) => e.type)).toEqual(
      expect.arrayContaining(['run_started', 'tool_call', 'tool_result', 'final_result']),
    );
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });
  it('a domain in a worker thread obeys the parent gate: a deny rule on ls keeps it from listing', async () => {
    const { result, events } = await runThreadedRouter('Could not list.', 'refused', {
      policy: {
        rules: [{ tool: 'ls', decision: 'deny', reason: 'no listing here' }],
        sideEffects: 'on',
      },
    });
    expect(result.traces).toEqual([]);
    const refused = events.find((e) => e.type === 'tool_result' && e.depth === 1);
    expect(refused?.data.error).toContain('Refused: no listing here');
  });
});

describe('parseChatHistory', () => {
  it('ignores blank input and folds continuation lines', () => {
    expect(parseChatHistory('')).toEqual([]);
    expect(parseChatHistory('hello\nuser: more')).toEqual([
      { role: 'user', parts: [{ kind: 'text', text: 'hello\nmore' }] },
    ]);
  });
});
