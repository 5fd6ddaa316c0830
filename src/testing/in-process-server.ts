import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { ModelClient } from '../model/types.js';
import { createRunService } from '../server/core/create-run-service.js';
import { buildServer } from '../server/http/build-server.js';
import type { RunService } from '../server/run-service-types.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/types.js';
import { testClient, type TestClient } from './http-client.js';

export interface InProcessServer {
  url: string;
  store: Store;
  service: RunService;
  /** Signed in as user `ann`. */
  client: TestClient;
  close(): Promise<void>;
}

/**
 * The real server in this process on 127.0.0.1: SQLite in `cwd`, the core
 * with its worker, the HTTP API; the model is whatever client the test gives.
 */
export async function startInProcessServer(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  modelClient: ModelClient;
}): Promise<InProcessServer> {
  const store = await openStore({ url: join(options.cwd, 'cadre.db') });
  const service = await createRunService({
    store,
    cwd: options.cwd,
    env: { HOME: options.cwd, ...options.env },
    modelClient: options.modelClient,
  });
  const app = buildServer({ service, store, log: { level: 'silent' } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const token = (await store.auth.createToken((await store.auth.ensureUser('ann')).id)).token;
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    store,
    service,
    client: testClient(token),
    async close() {
      await app.close();
      await service.close();
      await store.close();
    },
  };
}
