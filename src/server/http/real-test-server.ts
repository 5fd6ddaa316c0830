// Test-only: the real HTTP server over a real SQLite store and run service, on 127.0.0.1.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/types.js';
import { createRunService, type RunServiceOptions } from '../core/create-run-service.js';
import type { RunService } from '../run-service-types.js';
import { startTestServer, type TestServer } from './test-support.js';

export interface RealTestServer {
  store: Store;
  service: RunService;
  server: TestServer;
  /** Stops the server, the service and the store, and removes `dir`. */
  close: () => Promise<void>;
}

/** Opens `dir/cadre.db` (keyed audit), a run service over it, and the HTTP server in front. */
export async function startRealTestServer(
  dir: string,
  options: Omit<RunServiceOptions, 'store' | 'cwd' | 'env'> = {},
): Promise<RealTestServer> {
  const store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  const service = await createRunService({ store, cwd: dir, env: { HOME: dir }, ...options });
  const server = await startTestServer(service, { store });
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
