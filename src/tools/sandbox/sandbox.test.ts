import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decide } from '../../policy/decide.js';
import { makeWorkspace, type TestWorkspace } from '../builtin/testing/test-support.js';
import { createShellTool } from '../shell/shell-tool.js';
import { createSandbox } from './sandbox.js';
import { sandboxSettingsFromEnv, type SandboxSettings } from './sandbox-settings.js';
import { bubblewrapHere, probeSignal, sandboxedShell } from './testing/test-support.js';

// Attacks on the shell tool's sandbox: each test tries to cross a boundary and shows it holds.
// CI installs bubblewrap and sets CADRE_REQUIRE_SANDBOX=1, so there these tests never skip.
const bwrapHere = await bubblewrapHere();

let ws: TestWorkspace;
let home: string;
beforeEach(async () => {
  ws = await makeWorkspace();
  home = path.join(ws.outside, 'home');
  await mkdir(path.join(home, '.ssh'), { recursive: true });
  await writeFile(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
});
afterEach(() => ws.cleanup());

const shell = (settings: Partial<SandboxSettings> = {}) => sandboxedShell(ws, home, settings);

describe.runIf(bwrapHere)('shell sandbox (bubblewrap), attacked', () => {
  it('writes only inside the workspace: outside, /etc and the home folder stay untouched', async () => {
    const run = shell();
    const result = await run(
      `echo in > inside.txt; echo out > ${ws.outside}/escaped.txt; touch /etc/cadre-escape; ` +
        `echo x >> ${home}/.bashrc; echo done`,
    );
    expect(result.stdout).toContain('done');
    expect(await readFile(path.join(ws.root, 'inside.txt'), 'utf8')).toBe('in\n');
    expect(existsSync(path.join(ws.outside, 'escaped.txt'))).toBe(false);
    expect(existsSync('/etc/cadre-escape')).toBe(false);
    expect(existsSync(path.join(home, '.bashrc'))).toBe(false);
  });

  it("hides Cadre's state (.cadre/, the database elsewhere) and the home folder's keys", async () => {
    await ws.write({ '.cadre/audit.key': 'AUDIT-SECRET', '.cadre/cadre.db': 'THREADS' });
    const stateDir = path.join(ws.outside, 'state');
    await mkdir(stateDir);
    await writeFile(path.join(stateDir, 'cadre.db'), 'OTHER-USERS-THREADS');
    const result = await shell()(
      `cat .cadre/audit.key; ls -a .cadre; grep -r SECRET . ; cat ${stateDir}/cadre.db; ` +
        `cat ${home}/.ssh/id_ed25519; echo x > .cadre/policy.yaml; echo end`,
      [stateDir],
    );
    const seen = result.stdout + result.stderr;
    expect(result.stdout).toContain('end');
    for (const secret of ['AUDIT-SECRET', 'THREADS', 'PRIVATE KEY'])
      expect(seen).not.toContain(secret);
    expect(existsSync(path.join(ws.root, '.cadre', 'policy.yaml'))).toBe(false);
  });

  it('ends background work with the command: setsid, setsid -f and nohup cannot outlive it', async () => {
    const result = await shell()(
      `setsid sh -c 'sleep 0.5; touch M1' & setsid -f sh -c 'sleep 0.5; touch M2'; ` +
        `nohup sh -c 'sleep 0.5; touch M3' >/dev/null 2>&1 & (sh -c 'sleep 0.5; touch M4' &); echo started`,
    );
    expect(result.stdout).toContain('started');
    // Proving that something never happens needs a bounded wait past the moment it would have.
    await sleep(1_500);
    for (const marker of ['M1', 'M2', 'M3', 'M4'])
      expect(existsSync(path.join(ws.root, marker))).toBe(false);
  });

  it("keeps git's config and hooks read-only, so an allowed `git log` cannot plant a program", async () => {
    execFileSync('git', ['init', '-q', ws.root]);
    const config = path.join(ws.root, '.git', 'config');
    const before = await readFile(config, 'utf8');
    const result = await shell()(
      `git log -1 --format='[diff]%n  external = sh -c "touch PWNED"' --output=.git/config; ` +
        `echo 'touch PWNED' > .git/hooks/post-checkout; echo end`,
    );
    expect(result.stdout).toContain('end');
    expect(await readFile(config, 'utf8')).toBe(before);
    expect(existsSync(path.join(ws.root, '.git', 'hooks', 'post-checkout'))).toBe(false);
  });

  describe('network', () => {
    let server: Server;
    let port = 0;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        connections += 1;
        // The client exits as soon as it connects: a reset is expected, not a failure.
        socket.on('error', () => undefined);
        socket.end('hello\n');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const connect = () =>
      `'${process.execPath}' -e "require('net').connect(${port},'127.0.0.1')` +
      `.on('connect',()=>process.exit(0)).on('error',()=>process.exit(3))"`;

    it('is closed by default: not even the host loopback is reachable', async () => {
      const before = connections;
      const result = await shell()(connect());
      expect(result.exit_code).toBe(3);
      expect(connections).toBe(before);
    });

    it("cannot reach a host service's unix socket outside the workspace, wherever it lies", async () => {
      // Not under /tmp, which the sandbox replaces anyway: a folder it shows read-only.
      const folder = await mkdtemp(path.join(process.cwd(), '.sandbox-socket-'));
      const socketPath = path.join(folder, 'service.sock');
      let accepted = 0;
      const service = createServer((socket) => {
        accepted += 1;
        socket.on('error', () => undefined);
        socket.end('hello\n');
      });
      await new Promise<void>((resolve) => service.listen(socketPath, resolve));
      try {
        const result = await shell()(
          `'${process.execPath}' -e "require('net').connect('${socketPath}')` +
            `.on('connect',()=>process.exit(0)).on('error',()=>process.exit(3))"`,
        );
        expect(result.exit_code).toBe(3);
        expect(accepted).toBe(0);
      } finally {
        await new Promise<void>((resolve) => service.close(() => resolve()));
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('opens when the project says so (CADRE_SANDBOX_NETWORK=open)', async () => {
      const result = await shell({ network: 'open' })(connect());
      expect(result.exit_code).toBe(0);
    });
  });
});

describe('without a sandbox', () => {
  it('every shell call asks a person, whatever rules, grants or trust say', async () => {
    const sandbox = createSandbox(sandboxSettingsFromEnv({ CADRE_SANDBOX: 'off' }), process.env);
    const tool = createShellTool({ env: {}, sandbox });
    const floor = await tool.approvalFloor?.(probeSignal);
    expect(floor).toMatch(
      /No sandbox confines shell commands here \(turned off by CADRE_SANDBOX=off\)/,
    );
    const policyTool = { name: 'shell', sideEffect: true, approvalFloor: floor ?? '' };
    const call = { ok: true as const, args: { command: 'git status' } };
    const allowRule = { tool: 'shell', decision: 'allow' as const, reason: 'git is fine' };
    const grant = { tool: 'shell', recipient: '*' };
    for (const trust of ['autonomous', 'delegated'] as const) {
      expect(decide({ userId: 'ana', trust }, policyTool, call, [grant], [allowRule]).mode).toBe(
        'require_approval',
      );
    }
    const denyRule = { tool: 'shell', decision: 'deny' as const, reason: 'no shell' };
    expect(decide({ userId: 'ana' }, policyTool, call, [], [denyRule]).mode).toBe('deny');
  });

  it.runIf(bwrapHere)('a sandboxed shell has no floor', async () => {
    const tool = createShellTool({ env: process.env });
    expect(await tool.approvalFloor?.(probeSignal)).toBeUndefined();
  });
});
