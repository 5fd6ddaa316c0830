import { execFile, execFileSync, type ExecFileException } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'shell-quote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testOnlyFiles } from '../testing/test-only-files.js';

/**
 * `npm run test:package`: the packed tarball installed into a temporary
 * prefix, and the installed `cadre` run from outside the checkout, as a
 * newcomer would. npm fetches the dependencies from its cache or the registry.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
const readme = readFileSync(join(root, 'README.md'), 'utf8');

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function sh(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  return new Promise<Ran>((done) => {
    execFile(file, args, { ...options, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const code = (error as ExecFileException | null)?.code;
      done({ code: typeof code === 'number' ? code : error ? 1 : 0, stdout, stderr });
    });
  });
}

/** npm's own settings from `npm run` would point this install elsewhere: they are left out. */
function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)),
  );
  return { ...env, ...extra };
}

/** A Node older than 22 on this machine (CI's Node 20), for the clear message; undefined if none. */
function olderNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' });
    if (Number(/^v(\d+)/.exec(version)?.[1]) < 22) return candidate;
  }
  return undefined;
}

let tmp: string;
let prefix: string;
let tarball: string;
/** The tarball's files, as `npm pack --json` lists them. */
let packedFiles: string[];
let work: string;
/** The installed command's PATH: the prefix's bin, then this Node 22. */
let path: string;
const cadre = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  sh(join(prefix, 'bin', 'cadre'), args, {
    cwd,
    env: cleanEnv({ PATH: path, HOME: join(tmp, 'home'), NO_COLOR: '1', ...env }),
  });

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/src/cli/bin.js')) || !existsSync(join(root, 'dist/web')))
    throw new Error('Build first: npm run build:emit (npm test does).');
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  tmp = await mkdtemp(join(tmpdir(), 'cadre-package-'));
  prefix = join(tmp, 'prefix');
  work = join(tmp, 'work');
  await mkdir(work, { recursive: true });
  await mkdir(join(tmp, 'home'));
  path = [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter);
  const npmEnv = cleanEnv({ PATH: [dirname(process.execPath), process.env.PATH].join(delimiter) });
  // Built already: packing must not rebuild (`prepare` would run the whole build again).
  const packed = await sh(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp],
    {
      cwd: root,
      env: npmEnv,
    },
  );
  expect(packed.code, packed.stderr).toBe(0);
  const [{ filename, files }] = JSON.parse(packed.stdout) as [
    { filename: string; files: Array<{ path: string }> },
  ];
  tarball = join(tmp, filename);
  packedFiles = files.map((file) => file.path);
  const installed = await sh(
    'npm',
    ['install', '-g', '--prefix', prefix, tarball, '--no-audit', '--no-fund', '--prefer-offline'],
    { cwd: work, env: npmEnv },
  );
  expect(installed.code, installed.stderr).toBe(0);
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the packed package, installed with npm install -g into a temporary prefix', () => {
  it('is named as the README says, and puts cadre on PATH with its version', async () => {
    expect(tarball).toMatch(new RegExp(`${manifest.name}-${manifest.version}\\.tgz$`));
    expect(readme).toContain(`npm install -g ./${manifest.name}-${manifest.version}.tgz`);
    const version = await cadre(['--version'], work);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(manifest.version);
    const which = await sh('sh', ['-c', 'command -v cadre'], { cwd: work, env: { PATH: path } });
    expect(which.stdout.trim()).toBe(join(prefix, 'bin', 'cadre'));
    // Or without installing it, as the README says.
    const npx = await sh(
      'npx',
      ['--yes', '--prefer-offline', '-p', tarball, 'cadre', '--version'],
      {
        cwd: work,
        env: cleanEnv({ PATH: [dirname(process.execPath), process.env.PATH].join(delimiter) }),
      },
    );
    expect(npx.stdout.trim(), npx.stderr).toBe(manifest.version);
  });

  it('holds no test-only file: no test, test helper, fixture, bench or browser suite', () => {
    expect(packedFiles).toContain('dist/src/index.js');
    expect(packedFiles).toContain('dist/src/store/conformance/store-conformance.js');
    expect(testOnlyFiles(packedFiles)).toEqual([]);
  });

  it('cadre init writes a project outside the checkout', async () => {
    const init = await cadre(['init', 'hello'], work);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('Next:');
    for (const file of ['agents/helper.yaml', 'tools/word-count.tool.ts', 'policy.yaml'])
      expect(existsSync(join(work, 'hello', file)), file).toBe(true);
    const valid = await cadre(['validate', 'agents', '--trust-project'], join(work, 'hello'));
    expect(valid.code, valid.stdout + valid.stderr).toBe(0);
  });

  it("runs the README's first command, from outside the checkout, on the checkout's files", async () => {
    const block = /```sh\n([^`]*)```/.exec(readme)?.[1] ?? '';
    const line = block.split('\n').find((l) => l.includes('cadre run')) ?? '';
    const words = parse(line.slice(line.indexOf('cadre run'))).filter(
      (w): w is string => typeof w === 'string',
    );
    expect(words.slice(0, 2)).toEqual(['cadre', 'run']);
    // Paths in the checkout stay paths in the checkout; the agent investigates the checkout.
    const args = words
      .slice(1)
      .map((w) =>
        w.startsWith('examples/')
          ? resolve(root, w)
          : w.replace(
              /^scripted:(examples\/.*)$/,
              (_, p: string) => `scripted:${resolve(root, p)}`,
            ),
      );
    const run = await cadre([...args, '--workspace', root, '--json'], work);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      terminate_reason: 'GOAL',
      output: { summary: expect.stringContaining('resolveInWorkspace') },
    });
  });

  it('names a missing optional package with npm install -g, where a global cadre finds it', async () => {
    const serve = await cadre(['serve', '--port', '0'], join(work, 'hello'));
    expect(serve.code).toBe(2);
    expect(serve.stderr).toMatch(/cadre serve needs .*: npm install -g fastify /);
  });

  it.skipIf(olderNode() === undefined)(
    'on a Node older than 22 says what to do and exits 2',
    async () => {
      const old = dirname(olderNode() ?? '');
      const run = await cadre(['--version'], work, {
        PATH: [join(prefix, 'bin'), old, '/usr/bin', '/bin'].join(delimiter),
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/cadre needs Node 22 or later; this is Node 2?\d\./);
    },
  );

  it("the README's TypeScript agent works in a fresh project with only the package installed", async () => {
    const project = join(tmp, 'library');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), '{"name": "triage-app", "type": "module"}\n');
    const npmEnv = cleanEnv({
      PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
    });
    const installed = await sh(
      'npm',
      ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'],
      { cwd: project, env: npmEnv },
    );
    expect(installed.code, installed.stderr).toBe(0);
    const agent = /```ts\n(import \{ z \} from 'zod';[\s\S]*?)```/.exec(readme)?.[1];
    expect(agent, 'the README has a TypeScript agent importing zod').toBeDefined();
    await writeFile(join(project, 'triage.ts'), agent ?? '');
    // zod is a dependency of the package: the project's own file resolves it.
    await writeFile(
      join(project, 'check.ts'),
      "import agent from './triage.ts';\nconsole.log(agent.name, typeof agent.processOutput);\n",
    );
    const imported = await sh(process.execPath, ['check.ts'], { cwd: project, env: npmEnv });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trim()).toBe('triage function');
    const validated = await sh(
      join(project, 'node_modules/.bin/cadre'),
      ['validate', 'triage.ts', '--trust-project'],
      {
        cwd: project,
        env: cleanEnv({ PATH: path, HOME: join(tmp, 'home'), NO_COLOR: '1' }),
      },
    );
    expect(validated.stdout + validated.stderr).toContain('ok triage.ts (triage)');
  });
});
