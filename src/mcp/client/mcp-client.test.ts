import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited } from '../../testing/processes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentLookup } from '../../contracts/agent.js';
import type { CadreEvent } from '../../events/types.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import type { ConfirmationRequest } from '../../contracts/confirmation.js';
import { run } from '../../agents/run-verbs.js';
import { loadDefinition } from '../../definition/load-definition.js';
import { DEFAULT_KNOWN_TOOLS } from '../../definition/tool-names.js';
import { parseProjectMcpConfig } from '../project-mcp-config.js';
import { MAX_RESULT_CHARS } from '../../runtime/calls/cap-output.js';

const SERVER = fileURLToPath(new URL('./testing/notes-mcp-server.mjs', import.meta.url));

let dir: string;
let starts: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-mcp-'));
  starts = path.join(dir, 'starts.txt');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A definition file using the notes server over stdio, written into the temp
 * folder; the server's readOnlyHint labels are trusted unless `trust` is false.
 */
async function notesAgent(
  name: string,
  tools: string[],
  extraEnv = '',
  trust = true,
): Promise<string> {
  const file = path.join(dir, `${name}.yaml`);
  await writeFile(
    file,
    [
      `name: ${name}`,
      'description: Keeps notes.',
      'mcpServers:',
      '  notes:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(SERVER)}, --stdio]`,
      '    env:',
      `      NOTES_STARTS: ${JSON.stringify(starts)}`,
      extraEnv,
      trust ? '    trust: readOnlyHints' : '',
      'toolConfig:',
      `  tools: [${tools.join(', ')}]`,
      '',
    ].join('\n'),
  );
  return file;
}

const lastParts = (r: ModelRequest) => r.messages.at(-1)?.parts ?? [];
const responses = (r: ModelRequest) =>
  lastParts(r).flatMap((p) => (p.kind === 'function_response' ? [p] : []));
/** Scripted: makes the calls one turn each, then answers with every response it got. */
function callsInOrder(calls: Array<{ name: string; args?: Record<string, unknown> }>) {
  const seen: unknown[] = [];
  return new ScriptedModel((request, index): ScriptedTurn => {
    seen.push(...responses(request).map((p) => p.response));
    const call = calls[index];
    return call
      ? { parts: [{ functionCall: { name: call.name, args: call.args ?? {} } }] }
      : { parts: [{ text: JSON.stringify(seen) }] };
  });
}

const startedPids = async () =>
  (await readFile(starts, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);

describe('MCP servers as tool sources (real server processes, scripted model responses)', () => {
  it('offers server__tool names; a tool without readOnlyHint asks for approval, one labelled read-only by a trusted server does not; the server stops with the run', async () => {
    const file = await notesAgent('keeper', [
      'notes__add_note',
      'mcp__notes__list_notes',
      'notes__whoami',
    ]);
    const { definition } = await loadDefinition(file, { cwd: dir });
    expect(definition.toolConfig.tools).toEqual([
      'notes__add_note',
      'notes__list_notes',
      'notes__whoami',
    ]);
    const asked: ConfirmationRequest[] = [];
    const model = callsInOrder([
      { name: 'notes__add_note', args: { text: 'buy milk' } },
      { name: 'notes__list_notes' },
      { name: 'notes__whoami' },
    ]);
    const result = await run(definition, {
      model,
      workspace: dir,
      inputs: { prompt: 'go' },
      confirm: async (request) => (asked.push(request), { kind: 'approve' }),
    });
    expect(result.terminate_reason).toBe('GOAL');
    expect(asked.map((r) => r.tool)).toEqual(['notes__add_note']);
    expect(asked[0]?.preview).toContain('notes: add_note');
    const answers = JSON.parse(result.final_message) as Array<{ output?: unknown }>;
    expect(answers[0]?.output).toBe('added note 1');
    expect(answers[1]?.output).toEqual({ notes: ['buy milk'], text: 'buy milk' });
    const who = JSON.parse(String(answers[2]?.output)) as { pid: number };
    expect(await exited(who.pid)).toBe(true);
    const declared = model.requests[0]?.tools?.map((t) => t.name) ?? [];
    expect(declared).toEqual(expect.arrayContaining(['notes__add_note', 'notes__list_notes']));
    expect(declared).not.toContain('notes__explode');
  });

  it('a readOnlyHint label does not skip approval unless the project trusts the server: a destructive tool labelled read-only waits for a person, and a rejected call never runs', async () => {
    const file = await notesAgent(
      'liar',
      ['notes__add_note', 'notes__wipe_notes', 'notes__list_notes'],
      '',
      false,
    );
    const { definition } = await loadDefinition(file, { cwd: dir });
    const asked: ConfirmationRequest[] = [];
    const model = callsInOrder([
      { name: 'notes__add_note', args: { text: 'keep me' } },
      { name: 'notes__wipe_notes' },
      { name: 'notes__list_notes' },
    ]);
    const result = await run(definition, {
      model,
      workspace: dir,
      inputs: { prompt: 'go' },
      confirm: async (request) => {
        asked.push(request);
        return request.tool === 'notes__wipe_notes'
          ? { kind: 'reject', feedback: 'no' }
          : { kind: 'approve' };
      },
    });
    expect(result.terminate_reason).toBe('GOAL');
    expect(asked.map((r) => r.tool)).toEqual([
      'notes__add_note',
      'notes__wipe_notes',
      'notes__list_notes',
    ]);
    const answers = JSON.parse(result.final_message) as Array<{ output?: unknown; error?: string }>;
    expect(answers[1]?.error).toMatch(/rejected this call to notes__wipe_notes/);
    expect(answers[2]?.output).toEqual({ notes: ['keep me'], text: 'keep me' });

    // With nobody to ask, the labelled tool is refused, as any side effect is.
    const unattended = callsInOrder([{ name: 'notes__wipe_notes' }]);
    const refused = await run(definition, {
      model: unattended,
      workspace: dir,
      inputs: { prompt: 'go' },
    });
    const [alone] = JSON.parse(refused.final_message) as Array<{ error?: string }>;
    expect(alone?.error).toBeDefined();
    expect(refused.traces).toEqual([]);
  });

  it('a tool error goes back to the model; secrets reach the server only when its config lists them', async () => {
    process.env.SECRET_TOKEN = 'do-not-leak';
    process.env.LISTED_TOKEN = 'passed-on-purpose';
    try {
      const file = await notesAgent(
        'careful',
        ['notes__explode', 'notes__whoami'],
        '      LISTED_TOKEN: ${LISTED_TOKEN}',
      );
      const { definition } = await loadDefinition(file, { cwd: dir });
      const result = await run(definition, {
        model: callsInOrder([{ name: 'notes__explode' }, { name: 'notes__whoami' }]),
        workspace: dir,
        inputs: { prompt: 'go' },
      });
      const answers = JSON.parse(result.final_message) as Array<{
        output?: string;
        error?: string;
      }>;
      expect(answers[0]?.error).toContain('the notebook is on fire');
      const who = JSON.parse(String(answers[1]?.output)) as { secret: unknown; listed: unknown };
      expect(who.secret).toBeNull();
      expect(who.listed).toBe('passed-on-purpose');
    } finally {
      delete process.env.SECRET_TOKEN;
      delete process.env.LISTED_TOKEN;
    }
  });

  it('a resource_link in a tool answer is read from the same server (resources/read): text reaches the model; binary, oversized and unreadable links are notes', async () => {
    const file = await notesAgent('linker', ['notes__add_note', 'notes__link_notes']);
    const { definition } = await loadDefinition(file, { cwd: dir });
    const result = await run(definition, {
      model: callsInOrder([
        { name: 'notes__add_note', args: { text: 'buy milk' } },
        { name: 'notes__link_notes' },
      ]),
      workspace: dir,
      inputs: { prompt: 'go' },
      confirm: () => Promise.resolve({ kind: 'approve' }),
    });
    const answers = JSON.parse(result.final_message) as Array<{ output?: string }>;
    const linked = String(answers[1]?.output);
    // The note's own text, not an opaque link.
    expect(linked).toContain('[resource notes://all (all)]\nbuy milk');
    expect(linked).toContain('binary content (image/png) not shown');
    expect(linked.includes('[resource cut: 50000 characters')).toBe(true);
    expect(linked.length).toBeLessThan(20_000);
    expect(linked).toMatch(
      /notes:\/\/missing \(missing\)\] could not be read: .*no resource notes:\/\/missing/,
    );
  });

  it('starts a server only when an agent uses it, once per run tree shared by parent and child', async () => {
    await rm(starts, { force: true });
    const idle = await notesAgent('idle', ['read_file']);
    const { definition: unused } = await loadDefinition(idle, { cwd: dir });
    expect(unused.toolConfig.tools).toEqual(['read_file', 'notes__*']);
    // A declared server none of whose tools is listed is granted whole; loading starts nothing.
    const child = await notesAgent('child', ['notes__whoami']);
    const parent = await notesAgent('parent', ['notes__whoami', 'child']);
    const { definition: childDef } = await loadDefinition(child, { cwd: dir });
    const { definition: parentDef } = await loadDefinition(parent, {
      cwd: dir,
      isKnownAgent: (n) => n === 'child',
    });
    expect(await startedPids()).toEqual([]);
    const agents: AgentLookup = {
      get: (name) => (name === 'child' ? { kind: 'definition', definition: childDef } : undefined),
      names: () => ['child'],
    };
    const model = new ScriptedModel((request): ScriptedTurn => {
      const agent = request.systemInstruction?.includes('child') ? 'child' : 'parent';
      const got = responses(request);
      if (got.length === 0)
        return {
          parts: [
            agent === 'parent'
              ? { functionCall: { name: 'child', args: { prompt: 'who?' } } }
              : { functionCall: { name: 'notes__whoami', args: {} } },
          ],
        };
      if (agent === 'parent' && got[0]?.name === 'child')
        return { parts: [{ functionCall: { name: 'notes__whoami', args: {} } }] };
      return { parts: [{ text: JSON.stringify(got.map((p) => p.response)) }] };
    });
    const result = await run(parentDef, {
      model,
      workspace: dir,
      inputs: { prompt: 'go' },
      agents,
    });
    expect(result.terminate_reason).toBe('GOAL');
    const pids = await startedPids();
    expect(pids).toHaveLength(1);
    expect(await exited(pids[0] as number)).toBe(true);
  });

  it('a run tree whose root is a workflow (a code agent) also stops the servers its agents started', async () => {
    const { definition: child } = await loadDefinition(
      await notesAgent('worker', ['notes__whoami']),
      { cwd: dir },
    );
    const result = await run(
      {
        name: 'flow',
        description: 'd',
        promptConfig: {},
        toolConfig: { tools: [] },
        workflow: { kind: 'sequential', agents: [child] },
      },
      {
        model: callsInOrder([{ name: 'notes__whoami' }]),
        workspace: dir,
        inputs: { prompt: 'go' },
      },
    );
    const [answer] = JSON.parse(result.final_message) as Array<{ output: string }>;
    const who = JSON.parse(String(answer?.output)) as { pid: number };
    expect(await exited(who.pid)).toBe(true);
  });

  it('a 4 MB structured answer with its JSON text copy (8 MB) reaches the model once, cut to the cap with a marker', async () => {
    const file = await notesAgent('dumper', ['notes__dump']);
    const { definition } = await loadDefinition(file, { cwd: dir });
    const model = callsInOrder([
      { name: 'notes__dump', args: { chars: 10 } },
      { name: 'notes__dump', args: { chars: 4_000_000 } },
    ]);
    const result = await run(definition, {
      model,
      workspace: dir,
      inputs: { prompt: 'go' },
    });
    expect(result.terminate_reason).toBe('GOAL');
    const outputOf = (request: number): unknown => {
      const [answer] = responses(model.requests[request] as ModelRequest);
      return answer && 'output' in answer.response ? answer.response.output : undefined;
    };
    // Once: the text block that only repeats the structured content is not sent beside it.
    expect(outputOf(1)).toEqual({ blob: 'x'.repeat(10) });
    const sent = outputOf(2);
    expect(typeof sent).toBe('string');
    expect(String(sent).length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(String(sent).startsWith('{"blob":"xxx')).toBe(true);
    expect(String(sent)).toMatch(/\[… 3,9\d\d,\d\d\d characters cut …\]$/);
  });

  it('two tools whose safe names collide: the first is offered, the second is a warning', async () => {
    const file = await notesAgent('odd', ['mcp__notes']);
    const { definition } = await loadDefinition(file, { cwd: dir });
    const events: CadreEvent[] = [];
    const model = callsInOrder([{ name: 'notes__odd_name' }]);
    const result = await run(definition, {
      model,
      workspace: dir,
      inputs: { prompt: 'go' },
      onEvent: (e) => events.push(e),
    });
    expect(JSON.parse(result.final_message)).toEqual([{ output: 'odd.name' }]);
    expect(events.filter((e) => e.type === 'warning').map((e) => e.message)).toEqual([
      'MCP tool "notes/odd_name" would be named notes__odd_name, like "notes/odd.name"; left out',
    ]);
  });

  it('a server that cannot start is a warning naming it, and the run goes on without its tools', async () => {
    const file = path.join(dir, 'broken.yaml');
    await writeFile(
      file,
      'name: broken\ndescription: d\nmcpServers:\n  gone:\n    command: /nonexistent/mcp-server\ntoolConfig:\n  tools: [gone__anything]\n',
    );
    const { definition } = await loadDefinition(file, { cwd: dir });
    const events: CadreEvent[] = [];
    const result = await run(definition, {
      model: new ScriptedModel([{ parts: [{ text: 'done' }] }]),
      workspace: dir,
      inputs: { prompt: 'go' },
      onEvent: (e) => events.push(e),
    });
    expect(result.terminate_reason).toBe('GOAL');
    const warning = events.find((e) => e.type === 'warning');
    expect(warning?.message).toMatch(/MCP server "gone" could not start/);
  });
});

describe('MCP references in agent files', () => {
  it('a Claude Code file names mcp__server__tool for a project server (from .mcp.json)', async () => {
    const project = parseProjectMcpConfig(
      JSON.stringify({
        mcpServers: { context7: { command: 'npx', args: ['-y', 'context7-mcp'] } },
      }),
      '.mcp.json',
    );
    const file = path.join(dir, 'docs-lookup.md');
    await writeFile(
      file,
      '---\nname: docs-lookup\ndescription: Looks up docs.\ntools: ["Read", "mcp__context7__query-docs", "mcp__other__x"]\n---\nYou look up docs.\n',
    );
    const { definition, warnings } = await loadDefinition(file, {
      cwd: dir,
      mcpServers: Object.keys(project),
    });
    expect(definition.toolConfig.tools).toEqual(['read_file', 'context7__query-docs']);
    expect(warnings.map((w) => w.message).join('\n')).toMatch(
      /mcp__other__x.*MCP server "other", which is not configured/,
    );
  });

  it("in Cadre's own files an unconfigured server is an error naming the field", async () => {
    const file = path.join(dir, 'strict.yaml');
    await writeFile(
      file,
      'name: strict\ndescription: d\ntoolConfig:\n  tools: [mcp__nowhere__x]\n',
    );
    await expect(
      loadDefinition(file, { cwd: dir, knownTools: DEFAULT_KNOWN_TOOLS }),
    ).rejects.toThrow(/toolConfig\.tools\.0: .*MCP server "nowhere"/s);
  });

  it('only `trust: readOnlyHints` trusts a server’s labels; Gemini CLI’s `trust: true` is ignored', () => {
    const parse = (trust: unknown) =>
      parseProjectMcpConfig(
        JSON.stringify({ mcpServers: { s: { command: 'x', trust } } }),
        '.cadre/mcp.json',
      ).s;
    expect(parse('readOnlyHints')?.trustReadOnlyHints).toBe(true);
    expect(parse(true)?.trustReadOnlyHints).toBeUndefined();
    expect(() => parse('everything')).toThrow(/mcpServers\.s\.trust: expected "readOnlyHints"/);
  });

  it('a project config with a bad server is an error naming the file and field', () => {
    expect(() =>
      parseProjectMcpConfig(
        JSON.stringify({ mcpServers: { x: { args: ['a'] } } }),
        '.cadre/mcp.json',
      ),
    ).toThrow(/\.cadre\/mcp\.json: mcpServers\.x\.url/);
    expect(() => parseProjectMcpConfig('{', '.mcp.json')).toThrow(/\.mcp\.json: not valid JSON/);
  });
});

describe('remote MCP servers (streamable HTTP on loopback)', () => {
  let server: ChildProcess;
  let port: number;
  beforeAll(async () => {
    server = spawn(process.execPath, [SERVER, '--http'], {
      env: { ...process.env, NOTES_TOKEN: 'tok-123' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    });
  }, 30_000);
  afterAll(() => {
    server.kill();
  });

  it('calls a tool with the configured headers, ${VAR} expanded from the environment', async () => {
    process.env.NOTES_TEST_TOKEN = 'tok-123';
    try {
      const { definition } = await loadDefinition(
        await writeAgent(
          'remote',
          `mcpServers:\n  notes:\n    url: http://127.0.0.1:${port}/mcp\n    trust: readOnlyHints\n    headers:\n      Authorization: Bearer \${NOTES_TEST_TOKEN}\ntoolConfig:\n  tools: [notes__list_notes]\n`,
        ),
        { cwd: dir },
      );
      const result = await run(definition, {
        model: callsInOrder([{ name: 'notes__list_notes' }]),
        workspace: dir,
        inputs: { prompt: 'go' },
      });
      expect(JSON.parse(result.final_message)).toEqual([{ output: { notes: [] } }]);
    } finally {
      delete process.env.NOTES_TEST_TOKEN;
    }
  });

  it('a wrong token is a warning that names the server, not a crash', async () => {
    const { definition } = await loadDefinition(
      await writeAgent(
        'unauthorised',
        `mcpServers:\n  notes:\n    url: http://127.0.0.1:${port}/mcp\n    headers:\n      Authorization: Bearer wrong\n`,
      ),
      { cwd: dir },
    );
    const events: CadreEvent[] = [];
    await run(definition, {
      model: new ScriptedModel([{ parts: [{ text: 'ok' }] }]),
      workspace: dir,
      inputs: { prompt: 'go' },
      onEvent: (e) => events.push(e),
    });
    expect(events.find((e) => e.type === 'warning')?.message).toMatch(
      /MCP server "notes" could not start/,
    );
  });
});

async function writeAgent(name: string, body: string): Promise<string> {
  const file = path.join(dir, `${name}.yaml`);
  await writeFile(file, `name: ${name}\ndescription: d\n${body}`);
  return file;
}
