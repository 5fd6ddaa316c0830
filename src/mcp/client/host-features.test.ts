import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import type { ConfirmationHandler, ConfirmationRequest } from '../../contracts/confirmation.js';
import { run as runDefinition } from '../../agents/run-verbs.js';
import { loadDefinition } from '../../definition/load-definition.js';
import type { AgentDefinition } from '../../definition/types.js';

const SERVER = fileURLToPath(new URL('./testing/host-mcp-server.mjs', import.meta.url));

let dir: string;
let starts: string;
let definition: AgentDefinition;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'cadre-mcp-host-')));
  starts = path.join(dir, 'starts.txt');
  const file = path.join(dir, 'hoster.yaml');
  await writeFile(
    file,
    [
      'name: hoster',
      'description: Uses the host server.',
      'modelConfig:',
      '  model: gemini-2.5-flash',
      'mcpServers:',
      '  host:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(SERVER)}]`,
      `    env: { HOST_STARTS: ${JSON.stringify(starts)} }`,
      '    trust: readOnlyHints',
      'toolConfig:',
      '  tools: [host__roots, host__summarize, host__ask_first, host__ask_name, host__crash, host__snapshot]',
      '',
    ].join('\n'),
  );
  ({ definition } = await loadDefinition(file, { cwd: dir }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SAMPLED = 'milk, eggs, bread';
const responses = (r: ModelRequest) =>
  (r.messages.at(-1)?.parts ?? []).flatMap((p) => (p.kind === 'function_response' ? [p] : []));

/**
 * Scripted: makes the agent's calls one turn each, then answers with every
 * tool response as JSON. A request offering no tools is the server's
 * sampling request: it gets SAMPLED, with usage to be counted.
 */
type Call = { name: string; args?: Record<string, unknown> };

/** One call per turn; an array is one turn of calls made together. */
function scripted(calls: Array<Call | Call[]>) {
  const seen: unknown[] = [];
  let turn = 0;
  return new ScriptedModel((request): ScriptedTurn => {
    if (request.tools.length === 0)
      return {
        parts: [{ text: SAMPLED }],
        usage: { inputTokens: 1000, outputTokens: 100, totalTokens: 1100 },
      };
    seen.push(...responses(request).map((p) => p.response));
    const step = calls[turn++];
    const together = step === undefined ? [] : Array.isArray(step) ? step : [step];
    return together.length > 0
      ? {
          parts: together.map((call) => ({
            functionCall: { name: call.name, args: call.args ?? {} },
          })),
          usage: { inputTokens: 10, outputTokens: 1, totalTokens: 11 },
        }
      : { parts: [{ text: JSON.stringify(seen) }], usage: { inputTokens: 10, totalTokens: 10 } };
  });
}

async function run(calls: Array<Call | Call[]>, confirm?: ConfirmationHandler) {
  const model = scripted(calls);
  const events: CadreEvent[] = [];
  const result = await runDefinition(definition, {
    model,
    workspace: dir,
    inputs: { prompt: 'go' },
    ...(confirm ? { confirm } : {}),
    onEvent: (event) => events.push(event),
  });
  expect(result.terminate_reason).toBe('GOAL');
  const answers = JSON.parse(result.final_message) as Array<{ output?: unknown; error?: string }>;
  return { result, answers, events, model };
}

describe('what an MCP server may ask of Cadre (real stdio server, SDK, scripted model)', () => {
  it('declares the workspace as its root, so a server needs no folder argument', async () => {
    const { answers } = await run([{ name: 'host__roots' }]);
    expect(answers).toEqual([{ output: pathToFileURL(dir).href }]);
  });

  it("answers a sampling request with the calling agent's model (scripted), counted in the run's usage and cost", async () => {
    const { answers, result, events, model } = await run([
      { name: 'host__summarize', args: { text: 'We need milk, eggs and bread.' } },
    ]);
    expect(answers).toEqual([{ output: `sampled by gemini-2.5-flash: ${SAMPLED}` }]);
    const sampling = model.requests.find((r) => r.tools.length === 0);
    expect(sampling?.systemInstruction).toBe('Summarise in three words.');
    expect(sampling?.config.maxOutputTokens).toBe(50);
    expect(sampling?.messages).toEqual([
      { role: 'user', parts: [{ kind: 'text', text: 'We need milk, eggs and bread.' }] },
    ]);
    expect(result.usage.totalTokens).toBe(11 + 1100 + 10);
    const usage = events.find((e) => e.type === 'usage' && e.data.purpose === 'tool');
    expect(usage?.data.costUsd).toBeGreaterThan(0);
    // 1000 input + 100 output tokens at gemini-2.5-flash's list price, on top of the turns'.
    expect(result.cost_usd).toBeGreaterThanOrEqual((1000 * 0.3 + 100 * 2.5) / 1e6);
  });

  it("asks an elicitation of the run's person like an approval; refused when nobody can be asked", async () => {
    const asked: ConfirmationRequest[] = [];
    const approved = await run([{ name: 'host__ask_first' }], async (request) => {
      asked.push(request);
      return { kind: 'approve' };
    });
    expect(approved.answers).toEqual([{ output: 'person said accept {"keep":false}' }]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      tool: 'host__elicitation',
      preview: 'MCP server host asks: Delete the cache?',
      canPause: false,
    });
    const rejected = await run([{ name: 'host__ask_first' }], () =>
      Promise.resolve({ kind: 'reject' }),
    );
    expect(rejected.answers).toEqual([{ output: 'person said decline' }]);
    // No handler: the library default refuses, so the server hears a decline.
    const nobody = await run([{ name: 'host__ask_first' }]);
    expect(nobody.answers).toEqual([{ output: 'person said decline' }]);
    // A required field a yes / no cannot fill is declined without asking.
    const before = asked.length;
    const named = await run([{ name: 'host__ask_name' }], async (request) => {
      asked.push(request);
      return { kind: 'approve' };
    });
    expect(named.answers).toEqual([{ output: 'person said decline' }]);
    expect(asked).toHaveLength(before);
  });

  it("passes a tool's image to the model beside its answer (scripted), which still names it in text", async () => {
    const { answers, model } = await run([{ name: 'host__snapshot' }]);
    expect(answers).toEqual([
      { output: expect.stringMatching(/^one red pixel\n\[image: image\/png, \d+ bytes\]$/) },
    ]);
    const answered = model.requests
      .flatMap((r) => r.messages.flatMap((m) => m.parts))
      .find((p) => p.kind === 'function_response');
    expect(answered?.kind === 'function_response' && answered.images).toEqual([
      { mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) },
    ]);
  });

  it('restarts a crashed stdio server once, and names its stderr when it fails', async () => {
    await rm(starts, { force: true });
    const root = { output: pathToFileURL(dir).href };
    const { answers } = await run([
      { name: 'host__crash' },
      // Two calls at once after the crash: one restart serves both.
      [{ name: 'host__roots' }, { name: 'host__roots' }],
      { name: 'host__crash' },
      { name: 'host__roots' },
    ]);
    expect(answers[0]?.error).toMatch(/stopped during the call.*fatal: the index is corrupt/s);
    expect(answers.slice(1, 3)).toEqual([root, root]);
    expect(answers[3]?.error).toMatch(/fatal: the index is corrupt/);
    expect(answers[4]?.error).toMatch(/the server has stopped \(stderr: .*fatal: the index/s);
    const pids = (await readFile(starts, 'utf8')).split('\n').filter(Boolean);
    expect(pids).toHaveLength(2);
  });
});
