import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedModel, type Script } from '../../src/model/scripted-model.js';
import { buildServer } from '../../src/server/http/build-server.js';
import { createRunService } from '../../src/server/core/create-run-service.js';
import { registerWebUi } from '../../src/server/web-ui.js';
import { createSignInCodes } from '../../src/server/http/sign-in-codes.js';
import { openStore } from '../../src/store/open-store.js';
import { startSmtpServer, type TestSmtpServer } from '../../src/tools/mail/testing/test-support.js';
import { assistantTurn } from './assistant-script.js';
import { GatedModel } from './gated-model.js';

export interface RunningApp {
  url: string;
  /** A bearer token of user `ann`. */
  token: string;
  smtp: TestSmtpServer;
  model: GatedModel;
  /** A one-time sign-in link as `cadre serve` prints it (its session is ann's). */
  signInLink(): string;
  /** A bearer token of another user (made on first call). */
  tokenFor(name: string): Promise<string>;
  close(): Promise<void>;
}

export interface AppOptions {
  /** More agent files for the picker, by file name (`summarizer.yaml`). */
  agents?: Record<string, string>;
  /** The model's answers, instead of the scripted assistant (a list runs out). */
  script?: Script;
  /** The model string runs store (`scripted:FILE` as `cadre serve --model` gives it). */
  model?: string;
  /** No model at all and no key, as `cadre init && cadre serve` gives a newcomer. */
  noModel?: boolean;
}

/**
 * The real server in-process: SQLite in a temp folder, a real SMTP server,
 * the HTTP API and the built page; only the model is scripted.
 */
export async function startApp(options: AppOptions = {}): Promise<RunningApp> {
  const dir = await mkdtemp(join(tmpdir(), 'cadre-e2e-'));
  await writeAgents(join(dir, 'agents'));
  for (const [file, text] of Object.entries(options.agents ?? {}))
    await writeFile(join(dir, 'agents', file), text);
  const smtp = await startSmtpServer();
  // Keyed, as `cadre serve` opens it: the page shows the chain as verified.
  const store = await openStore({ url: join(dir, 'cadre.db'), auditKey: randomBytes(32) });
  const model = new GatedModel(
    new ScriptedModel(options.script ?? assistantTurn, { source: options.model ?? 'scripted' }),
  );
  const service = await createRunService({
    store,
    cwd: dir,
    env: { CADRE_SMTP_URL: smtp.url(), CADRE_MAIL_FROM: 'cadre@example.com', HOME: dir },
    ...(options.noModel ? {} : { model: options.model ?? 'scripted', modelClient: model }),
  });
  const user = await store.auth.ensureUser('ann');
  const { token } = await store.auth.createToken(user.id);
  const codes = createSignInCodes();
  const app = buildServer({
    service,
    store,
    log: { level: 'silent' },
    signIn: { codes, mint: async () => (await store.auth.createToken(user.id)).token },
  });
  registerWebUi(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    smtp,
    model,
    signInLink: () => `http://127.0.0.1:${port}/#token=${codes.issue()}`,
    async tokenFor(name) {
      return (await store.auth.createToken((await store.auth.ensureUser(name)).id)).token;
    },
    async close() {
      await app.close();
      await service.close();
      await store.close();
      await smtp.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Agents for the picker: a coordinator that delegates to a greeter (a nested subagent in the timeline). */
async function writeAgents(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'greeter.yaml'),
    'name: greeter\ndescription: Says hello.\npromptConfig:\n  systemPrompt: You greet people.\n',
  );
  await writeFile(
    join(folder, 'coordinator.yaml'),
    [
      'name: coordinator',
      'description: Delegates greetings to the greeter.',
      'promptConfig:',
      '  systemPrompt: Ask the greeter (task tool) to greet, then report.',
      'toolConfig:',
      '  tools: [task]',
      '',
    ].join('\n'),
  );
}
