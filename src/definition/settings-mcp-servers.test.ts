import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { ValidationError } from '../errors/validation-error.js';
import { loadDefinition } from './load-definition.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-settings-mcp-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), text);
}

const agent = (name: string, extra: string[] = []): string =>
  ['---', `name: ${name}`, 'description: d', ...extra, '---', 'You help.', ''].join('\n');

/** A home with no settings, so the machine's own ~/.gemini never leaks in. */
const load = (file: string, home = path.join(dir, 'empty-home')) =>
  loadDefinition(file, { cwd: dir, home });

describe('Gemini CLI and Claude Code agent files: MCP servers and kind', () => {
  test('mcp_servers.<name>.http_url is a remote streamable-HTTP server', async () => {
    await write(
      'http/.gemini/agents/caller.md',
      agent('caller', [
        'kind: local',
        'mcp_servers:',
        '  remote:',
        '    http_url: http://127.0.0.1:9/mcp',
        '    headers: { Authorization: "Bearer ${TOKEN}" }',
      ]),
    );
    const { definition } = await load('http/.gemini/agents/caller.md');
    expect(definition.mcpServers).toEqual({
      remote: {
        transport: 'http',
        url: 'http://127.0.0.1:9/mcp',
        headers: { Authorization: 'Bearer ${TOKEN}' },
      },
    });
  });

  test('kind other than local or remote is an error naming the field and line', async () => {
    await write('kind/.gemini/agents/odd.md', agent('odd', ['kind: subagent']));
    const error = await load('kind/.gemini/agents/odd.md').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(
      (error as ValidationError).issues.map((i) => `${i.line} ${i.path}: ${i.message}`),
    ).toEqual(['4 kind: kind must be local or remote, got "subagent"']);
  });

  test(".gemini/settings.json servers reach the project's agents that may use them", async () => {
    await write(
      'gem/.gemini/settings.json',
      JSON.stringify({
        mcpServers: {
          fs: { command: 'node', args: ['fs-server.js'] },
          web: { httpUrl: 'http://127.0.0.1:9/mcp' },
        },
      }),
    );
    await write('gem/.gemini/agents/all.md', agent('all'));
    await write('gem/.gemini/agents/some.md', agent('some', ['tools: [read_file, mcp_fs_read]']));
    await write('gem/.gemini/agents/none.md', agent('none', ['tools: [read_file]']));
    const all = (await load('gem/.gemini/agents/all.md')).definition;
    expect(Object.keys(all.mcpServers ?? {})).toEqual(['fs', 'web']);
    expect(all.mcpServers?.web).toMatchObject({ transport: 'http', url: 'http://127.0.0.1:9/mcp' });
    expect(all.toolConfig.tools).toEqual(expect.arrayContaining(['fs__*', 'web__*']));
    const some = (await load('gem/.gemini/agents/some.md')).definition;
    expect(Object.keys(some.mcpServers ?? {})).toEqual(['fs']);
    expect(some.toolConfig.tools).toEqual(['read_file', 'fs__read']);
    expect((await load('gem/.gemini/agents/none.md')).definition.mcpServers).toBeUndefined();
  });

  test(".claude/settings.json servers reach Claude Code agents; the agent's own entry wins", async () => {
    await write(
      'cl/.claude/settings.json',
      JSON.stringify({
        mcpServers: {
          memory: { command: 'npx', args: ['memory-server'] },
          own: { command: 'from-settings' },
        },
      }),
    );
    await write(
      'cl/.claude/agents/keeper.md',
      agent('keeper', ['mcpServers:', '  own:', '    command: from-agent']),
    );
    const { definition } = await load('cl/.claude/agents/keeper.md');
    expect(definition.mcpServers).toMatchObject({
      memory: { transport: 'stdio', command: 'npx' },
      own: { transport: 'stdio', command: 'from-agent' },
    });
  });

  test('a settings file that is not JSON is a warning; the agent loads without its servers', async () => {
    await write('bad/.gemini/settings.json', '{ nope');
    await write('bad/.gemini/agents/a.md', agent('a'));
    const { definition, warnings } = await load('bad/.gemini/agents/a.md');
    expect(definition.mcpServers).toBeUndefined();
    expect(warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/^\.gemini\/settings\.json is not valid JSON/),
    );
  });

  describe("the user's ~/.gemini/settings.json", () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    test('its servers reach Gemini CLI agents too; the project file wins a name both give', async () => {
      await write(
        'user-home/.gemini/settings.json',
        JSON.stringify({
          mcpServers: {
            shared: { command: 'from-user' },
            mine: { httpUrl: 'http://127.0.0.1:9/mine' },
          },
        }),
      );
      await write(
        'proj/.gemini/settings.json',
        JSON.stringify({ mcpServers: { shared: { command: 'from-project' } } }),
      );
      await write('proj/.gemini/agents/a.md', agent('a'));
      const { definition } = await load('proj/.gemini/agents/a.md', path.join(dir, 'user-home'));
      expect(definition.mcpServers).toMatchObject({
        shared: { transport: 'stdio', command: 'from-project' },
        mine: { transport: 'http', url: 'http://127.0.0.1:9/mine' },
      });
      // Claude Code keeps its user servers in ~/.claude.json, never in ~/.claude/settings.json.
      await write('user-home/.claude/settings.json', JSON.stringify({ mcpServers: { x: {} } }));
      await write('proj/.claude/agents/b.md', agent('b'));
      const claude = await load('proj/.claude/agents/b.md', path.join(dir, 'user-home'));
      expect(claude.definition.mcpServers).toBeUndefined();
    });

    test("the server's loads (userSettings: false) never take the operator's personal servers", async () => {
      await write(
        'op-home/.gemini/settings.json',
        JSON.stringify({ mcpServers: { personal: { command: 'op-token-server' } } }),
      );
      await write(
        'served/.gemini/settings.json',
        JSON.stringify({ mcpServers: { team: { command: 'team' } } }),
      );
      await write('served/.gemini/agents/s.md', agent('s'));
      const served = await loadDefinition('served/.gemini/agents/s.md', {
        cwd: dir,
        home: path.join(dir, 'op-home'),
        userSettings: false,
      });
      expect(Object.keys(served.definition.mcpServers ?? {})).toEqual(['team']);
      // The same file loaded for the person at the terminal does get them.
      const own = await load('served/.gemini/agents/s.md', path.join(dir, 'op-home'));
      expect(Object.keys(own.definition.mcpServers ?? {}).sort()).toEqual(['personal', 'team']);
    });

    test('$HOME is where it is looked for; a broken one is a warning naming it', async () => {
      await write('env-home/.gemini/settings.json', '{ broken');
      await write(
        'env-proj/.gemini/settings.json',
        JSON.stringify({ mcpServers: { p: { command: 'p' } } }),
      );
      await write('env-proj/.gemini/agents/c.md', agent('c'));
      vi.stubEnv('HOME', path.join(dir, 'env-home'));
      const { definition, warnings } = await loadDefinition('env-proj/.gemini/agents/c.md', {
        cwd: dir,
      });
      expect(Object.keys(definition.mcpServers ?? {})).toEqual(['p']);
      expect(warnings.map((w) => w.message)).toContainEqual(
        expect.stringMatching(/^~\/\.gemini\/settings\.json is not valid JSON/),
      );
      await write(
        'env-home/.gemini/settings.json',
        JSON.stringify({ mcpServers: { u: { command: 'u' } } }),
      );
      const again = await loadDefinition('env-proj/.gemini/agents/c.md', { cwd: dir });
      expect(Object.keys(again.definition.mcpServers ?? {}).sort()).toEqual(['p', 'u']);
    });
  });

  describe("the user's ~/.claude.json", () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    const claudeJson = (projects: Record<string, unknown>, user: Record<string, unknown> = {}) =>
      JSON.stringify({ numStartups: 3, mcpServers: user, projects });

    test('user servers reach Claude Code agents; the project wins over them, local scope over both', async () => {
      const project = path.join(dir, 'cl-proj');
      await write(
        'cl-home/.claude.json',
        claudeJson(
          {
            [project]: {
              allowedTools: [],
              mcpServers: {
                mine: { command: 'from-local' },
                both: { command: 'from-local' },
              },
            },
            [path.join(dir, 'elsewhere')]: { mcpServers: { other: { command: 'other' } } },
          },
          {
            everywhere: { type: 'http', url: 'http://127.0.0.1:9/user' },
            shared: { command: 'from-user' },
            mine: { command: 'from-user' },
          },
        ),
      );
      await write(
        'cl-proj/.claude/settings.json',
        JSON.stringify({
          mcpServers: { shared: { command: 'from-project' }, both: { command: 'from-project' } },
        }),
      );
      await write('cl-proj/.claude/agents/a.md', agent('a'));
      const { definition, warnings } = await load(
        'cl-proj/.claude/agents/a.md',
        path.join(dir, 'cl-home'),
      );
      expect(warnings).toEqual([]);
      expect(Object.keys(definition.mcpServers ?? {}).sort()).toEqual([
        'both',
        'everywhere',
        'mine',
        'shared',
      ]);
      expect(definition.mcpServers).toMatchObject({
        everywhere: { transport: 'http', url: 'http://127.0.0.1:9/user' },
        shared: { command: 'from-project' },
        mine: { command: 'from-local' },
        both: { command: 'from-local' },
      });
      // Gemini CLI agents do not take Claude Code's servers.
      await write('cl-proj/.gemini/agents/g.md', agent('g'));
      const gemini = await load('cl-proj/.gemini/agents/g.md', path.join(dir, 'cl-home'));
      expect(gemini.definition.mcpServers).toBeUndefined();
    });

    test("local scope replaces the project's .mcp.json server of that name; user scope does not", async () => {
      const project = path.join(dir, 'mcpjson-proj');
      await write(
        'mcpjson-home/.claude.json',
        claudeJson(
          { [project]: { mcpServers: { db: { command: 'my-db' } } } },
          { github: { command: 'my-github' } },
        ),
      );
      await write('mcpjson-proj/.claude/agents/a.md', agent('a'));
      const { definition } = await loadDefinition('mcpjson-proj/.claude/agents/a.md', {
        cwd: dir,
        home: path.join(dir, 'mcpjson-home'),
        mcpServers: ['db', 'github'],
      });
      expect(Object.keys(definition.mcpServers ?? {})).toEqual(['db']);
      expect(definition.mcpServers?.db).toMatchObject({ transport: 'stdio', command: 'my-db' });
    });

    test("the server's loads (userSettings: false) never take them", async () => {
      const project = path.join(dir, 'cl-served');
      await write(
        'cl-op-home/.claude.json',
        claudeJson(
          { [project]: { mcpServers: { mine: { command: 'op-local' } } } },
          { personal: { command: 'op-token-server' } },
        ),
      );
      await write(
        'cl-served/.claude/settings.json',
        JSON.stringify({ mcpServers: { team: { command: 'team' } } }),
      );
      await write('cl-served/.claude/agents/s.md', agent('s'));
      const served = await loadDefinition('cl-served/.claude/agents/s.md', {
        cwd: dir,
        home: path.join(dir, 'cl-op-home'),
        userSettings: false,
      });
      expect(Object.keys(served.definition.mcpServers ?? {})).toEqual(['team']);
      const own = await load('cl-served/.claude/agents/s.md', path.join(dir, 'cl-op-home'));
      expect(Object.keys(own.definition.mcpServers ?? {}).sort()).toEqual([
        'mine',
        'personal',
        'team',
      ]);
    });

    test('$HOME is where it is looked for; a broken one is a warning naming it', async () => {
      await write('cl-env-home/.claude.json', '{ broken');
      await write(
        'cl-env-proj/.claude/settings.json',
        JSON.stringify({ mcpServers: { p: { command: 'p' } } }),
      );
      await write('cl-env-proj/.claude/agents/c.md', agent('c'));
      vi.stubEnv('HOME', path.join(dir, 'cl-env-home'));
      const { definition, warnings } = await loadDefinition('cl-env-proj/.claude/agents/c.md', {
        cwd: dir,
      });
      expect(Object.keys(definition.mcpServers ?? {})).toEqual(['p']);
      expect(warnings.map((w) => w.message)).toContainEqual(
        expect.stringMatching(/^~\/\.claude\.json is not valid JSON/),
      );
      await write('cl-env-home/.claude.json', claudeJson({}, { u: { command: 'u' } }));
      const again = await loadDefinition('cl-env-proj/.claude/agents/c.md', { cwd: dir });
      expect(Object.keys(again.definition.mcpServers ?? {}).sort()).toEqual(['p', 'u']);
    });
  });
});
