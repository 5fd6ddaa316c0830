// Test-only: the real HTTP server over a real SQLite store and run service, on 127.0.0.1.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../../store/open-store.js';
import type { Store } from '../../../store/types.js';
import { createRunService, type RunServiceOptions } from '../../core/create-run-service.js';
import type { RunService } from '../../run-service-types.js';
import { startTestServer, type TestServer } from './test-support.js';

/** The run service's options a test sets; `env` adds to the service's own (HOME is the workspace). */
export type TestRunOptions = Omit<RunServiceOptions, 'store' | 'cwd' | 'env'> & {
  env?: NodeJS.ProcessEnv;
};

export interface RealTestServer {
  store: Store;
  service: RunService;
  server: TestServer;
  /** Stops the server, the service and the store, and removes `dir`. */
  close: () => Promise<void>;
}

/**
 * Opens `dir/cadre.db` (keyed audit), a run service over it, and the HTTP server in front
 * (serving `serve(service)`, so a test can slot itself between the routes and the service).
 */
export async function startRealTestServer(
  dir: string,
  options: TestRunOptions = {},
  serve: (service: RunService) => RunService = (service) => service,
): Promise<RealTestServer> {
  const store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  const { env, ...rest } = options;
  const service = await createRunService({ store, cwd: dir, env: { HOME: dir, ...env }, ...rest });
  const server = await startTestServer(serve(service), { store });
  return {
    store,
    service,
    server,
    close: async () => {
      await server.close();
      await service.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** An agent that may write files (each write waits for approval). */
export const WRITER_AGENT =
  'name: writer\ndescription: Writes files.\ntoolConfig:\n  tools: [write_file]\npromptConfig:\n  systemPrompt: Write.\n';

export interface AgentsTestServer<U extends string> extends RealTestServer {
  /** The workspace: `agents/`, the database, and whatever the agents write. */
  dir: string;
  /** Each user asked for, with a bearer token of their own. */
  users: Record<U, { id: string; token: string }>;
}

/**
 * A fresh workspace (`prefix` under the temp dir) holding `agents/<name>.yaml` for each
 * of `agents`, the real server over it, and a user with a token for each of `users`.
 */
export async function startAgentsTestServer<U extends string>(options: {
  prefix: string;
  agents: Record<string, string>;
  users: readonly U[];
  run: TestRunOptions;
  serve?: (service: RunService) => RunService;
}): Promise<AgentsTestServer<U>> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), options.prefix)));
  await mkdir(join(dir, 'agents'));
  for (const [name, yaml] of Object.entries(options.agents))
    await writeFile(join(dir, 'agents', `${name}.yaml`), yaml);
  const real = await startRealTestServer(dir, options.run, options.serve);
  const users = {} as Record<U, { id: string; token: string }>;
  for (const name of options.users) {
    const user = await real.store.auth.ensureUser(name);
    users[name] = { id: user.id, token: (await real.store.auth.createToken(user.id)).token };
  }
  return { ...real, dir, users };
}
