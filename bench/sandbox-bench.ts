import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rootExecution } from '../src/events/execution-context.js';
import { RunEvents } from '../src/runtime/loop/run-events.js';
import { createSandbox } from '../src/tools/sandbox/sandbox.js';
import { sandboxSettingsFromEnv } from '../src/tools/sandbox/sandbox-settings.js';
import { createShellTool } from '../src/tools/shell/shell-tool.js';
import type { ToolContext } from '../src/tools/types.js';
import { median } from './measure.js';

/**
 * What the sandbox costs per shell call: `true` run by the shell tool with
 * bubblewrap and with no sandbox, alternating in rounds so load hits both.
 */
const ROUNDS = 7;
const CALLS_PER_ROUND = 15;

async function main(): Promise<void> {
  const workspace = await mkdtemp(path.join(tmpdir(), 'cadre-sandbox-bench-'));
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' };
  const ctx: ToolContext = {
    runId: 'bench',
    execution: rootExecution('bench', 'bench'),
    signal: new AbortController().signal,
    workspace,
    emit: new RunEvents('bench').sinkFor(rootExecution('bench', 'bench')),
  };
  const boxed = createShellTool({ env, sandbox: createSandbox(sandboxSettingsFromEnv({}), env) });
  const bare = createShellTool({
    env,
    sandbox: createSandbox(sandboxSettingsFromEnv({ CADRE_SANDBOX: 'off' }), env),
  });
  const status = await createSandbox(sandboxSettingsFromEnv({}), env).status(ctx.signal);
  if (status.kind !== 'bwrap') throw new Error(`no sandbox here: ${status.reason}`);
  const perCall = async (tool: typeof bare): Promise<number> => {
    const start = performance.now();
    for (let i = 0; i < CALLS_PER_ROUND; i++) await tool.execute({ command: 'true' }, ctx);
    return (performance.now() - start) / CALLS_PER_ROUND;
  };
  await perCall(boxed);
  await perCall(bare);
  const bareTimes: number[] = [];
  const boxedTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareTimes.push(await perCall(bare));
    boxedTimes.push(await perCall(boxed));
  }
  const b = median(bareTimes);
  const s = median(boxedTimes);
  console.log(
    `shell call, no sandbox: ${b.toFixed(1)} ms; bubblewrap: ${s.toFixed(1)} ms; ` +
      `sandbox cost ${(s - b).toFixed(1)} ms per call (x${(s / b).toFixed(2)})`,
  );
  await rm(workspace, { recursive: true, force: true });
}

await main();
