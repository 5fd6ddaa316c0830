import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { AuditExportOptions, AuditVerifyOptions } from '../commands/audit.js';
import type { ChatCommandOptions } from '../commands/chat.js';
import type { EvalCommandOptions } from '../commands/eval.js';
import type { GrantsListOptions } from '../commands/grants.js';
import type { McpCommandOptions } from '../commands/mcp.js';
import type { ModelsListOptions } from '../commands/models.js';
import type { ReplayCommandOptions } from '../commands/replay.js';
import type { RunCommandOptions } from '../commands/run.js';
import type { ServeCommandOptions, WorkerCommandOptions } from '../commands/serve.js';
import type {
  StoreCommandOptions,
  TokenCreateOptions,
  TokenListOptions,
} from '../commands/token.js';
import type { ToolsCommandOptions } from '../commands/tools.js';
import type { TrustCommandOptions } from '../commands/trust.js';
import type { ValidateCommandOptions } from '../commands/validate.js';
import { COMMANDS } from '../program.js';

/**
 * Every field of an options type, written as a literal the compiler checks
 * against the type both ways (a missing field and an extra one are errors),
 * so the test below ties each command's type to the flags it registers.
 */
const fields = <T>(all: Record<keyof T, true>): string[] => Object.keys(all).sort();

const EXPECTED: ReadonlyArray<[string, string[]]> = [
  [
    'run',
    fields<RunCommandOptions>({
      input: true,
      model: true,
      workspace: true,
      approve: true,
      json: true,
      quiet: true,
      record: true,
      policy: true,
      trustProject: true,
    }),
  ],
  ['validate', fields<ValidateCommandOptions>({ strict: true, trustProject: true })],
  [
    'chat',
    fields<ChatCommandOptions>({ model: true, approve: true, policy: true, trustProject: true }),
  ],
  ['tools', fields<ToolsCommandOptions>({ json: true, trustProject: true })],
  ['trust', fields<TrustCommandOptions>({ list: true, revoke: true })],
  [
    'replay',
    fields<ReplayCommandOptions>({
      agent: true,
      strict: true,
      liveTools: true,
      until: true,
      model: true,
      timing: true,
      workspace: true,
      approve: true,
      record: true,
      json: true,
      quiet: true,
    }),
  ],
  [
    'eval',
    fields<EvalCommandOptions>({
      dataset: true,
      scorer: true,
      model: true,
      judgeModel: true,
      judge: true,
      concurrency: true,
      repeat: true,
      retries: true,
      minScore: true,
      workspace: true,
      approve: true,
      json: true,
    }),
  ],
  [
    'mcp',
    fields<McpCommandOptions>({
      workspace: true,
      model: true,
      approve: true,
      policy: true,
      trustProject: true,
    }),
  ],
  [
    'serve',
    fields<ServeCommandOptions>({
      port: true,
      host: true,
      db: true,
      model: true,
      agents: true,
      worker: true,
      workspace: true,
      workspaceScope: true,
      policy: true,
      trustProject: true,
      drainSeconds: true,
      logLevel: true,
      logFormat: true,
    }),
  ],
  [
    'worker',
    fields<WorkerCommandOptions>({
      db: true,
      model: true,
      agents: true,
      workspace: true,
      workspaceScope: true,
      policy: true,
      trustProject: true,
      drainSeconds: true,
      logLevel: true,
      logFormat: true,
    }),
  ],
  ['token create', fields<TokenCreateOptions>({ user: true, db: true, createDb: true })],
  ['token list', fields<TokenListOptions>({ user: true, json: true, db: true })],
  ['token revoke', fields<StoreCommandOptions>({ db: true })],
  ['grants list', fields<GrantsListOptions>({ user: true, json: true, db: true })],
  ['grants revoke', fields<StoreCommandOptions>({ db: true })],
  ['audit verify', fields<AuditVerifyOptions>({ db: true, anchor: true })],
  ['audit export', fields<AuditExportOptions>({ db: true, out: true })],
  ['audit seal', fields<StoreCommandOptions>({ db: true })],
  ['models list', fields<ModelsListOptions>({ json: true, available: true })],
];

function program(): Command {
  const root = new Command();
  const context = {
    io: { stdout() {}, stderr() {}, env: {}, cwd: '/', isTTY: false },
    setExit() {},
  };
  for (const register of COMMANDS) register(root, context);
  return root;
}

describe("each command's options type", () => {
  const root = program();
  it.each(EXPECTED)('cadre %s: names exactly the flags it registers', (path, expected) => {
    let command: Command | undefined = root;
    for (const name of path.split(' ')) command = command?.commands.find((c) => c.name() === name);
    const registered = (command?.options ?? []).map((option) => option.attributeName()).sort();
    expect(registered).toEqual(expected);
  });
});
