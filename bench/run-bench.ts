import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rootExecution } from '../src/events/execution-context.js';
import { RunEvents } from '../src/runtime/loop/run-events.js';
import { run } from '../src/runtime/run-verbs.js';
import { createRuntime, type Runtime } from '../src/runtime/loop/runtime.js';
import type { ModelClient } from '../src/model/types.js';
import type { AgentDefinition } from '../src/definition/types.js';
import type { ToolContext } from '../src/tools/types.js';
import { ToolRegistry } from '../src/tools/tool-registry.js';
import { bareLoop } from './bare-loop.js';
import { GatedModel } from './gated-model.js';
import { againstGoal, cpuPerCall, heapUsed, median, ratio, timePerCall } from './measure.js';
import { addTool, workloadDefinition, workloadModel } from './workload.js';

const TURNS = 10;
const CONCURRENT = 1000;
const CONCURRENT_TURNS = 5;
const TURN_DELAY_MS = 5;
/** The goals each figure is read against (cadre / bare loop, KB, ms). */
const GOALS = { perTurn: 4, concurrent: 1.5, waitingKb: 8, coldImportMs: 50 };

function toolContext(): ToolContext {
  return {
    runId: 'bench',
    execution: rootExecution('bench', 'bench'),
    signal: new AbortController().signal,
    workspace: process.cwd(),
    emit: new RunEvents('bench').sinkFor(rootExecution('bench', 'bench')),
  };
}

/** What every Cadre run of the bench shares, as a server or CLI shares its loaded definitions. */
interface Setup {
  runtime: Runtime;
  tools: ToolRegistry;
  definition: (turns: number) => AgentDefinition;
}

async function cadreRun(
  { runtime, tools, definition }: Setup,
  turns: number,
  delayMs = 0,
  model: ModelClient = workloadModel(turns, delayMs),
) {
  const result = await run(definition(turns), {
    model,
    runtime,
    tools,
    inputs: { prompt: 'go' },
  });
  if (result.terminate_reason !== 'GOAL')
    throw new Error(`bench run ended ${result.terminate_reason}: ${result.final_message}`);
}

/** Rounds of the per-turn figure: bare and Cadre alternate, so a burst of load hits both. */
const ROUNDS = 9;
const ROUND_MS = 250;

async function perTurn(setup: Setup): Promise<{ bare: number; cadre: number; ratio: number }> {
  const ctx = toolContext();
  const bare = () => bareLoop(workloadModel(TURNS), addTool, ctx);
  const cadre = () => cadreRun(setup, TURNS);
  await timePerCall(bare, 300);
  await timePerCall(cadre, 600);
  const rounds: Array<{ bare: number; cadre: number }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    // No forced collection between rounds: it shrinks the heap V8 sized for the load, and the
    // side allocating more (Cadre) then pays for collections a running process would not make.
    const bareMs = await cpuPerCall(bare, ROUND_MS);
    const cadreMs = await cpuPerCall(cadre, ROUND_MS);
    rounds.push({ bare: (bareMs * 1000) / TURNS, cadre: (cadreMs * 1000) / TURNS });
  }
  return {
    bare: median(rounds.map((r) => r.bare)),
    cadre: median(rounds.map((r) => r.cadre)),
    ratio: median(rounds.map((r) => r.cadre / r.bare)),
  };
}

interface Wall {
  ms: number;
  peakKbPerRun: number;
}

/** Rounds of the concurrency figure, alternating like the per-turn ones. */
const CONCURRENT_ROUNDS = 5;

async function concurrent(setup: Setup, delayMs: number) {
  const ctx = toolContext();
  const wall = async (start: () => Promise<unknown>): Promise<Wall> => {
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
    const t = performance.now();
    await Promise.all(Array.from({ length: CONCURRENT }, start));
    const ms = performance.now() - t;
    clearInterval(sampler);
    return { ms, peakKbPerRun: (peak - base) / 1024 / CONCURRENT };
  };
  const rounds: Array<{ bare: Wall; cadre: Wall }> = [];
  for (let i = 0; i < CONCURRENT_ROUNDS; i++) {
    const bare = await wall(() => bareLoop(workloadModel(CONCURRENT_TURNS, delayMs), addTool, ctx));
    const cadre = await wall(() => cadreRun(setup, CONCURRENT_TURNS, delayMs));
    rounds.push({ bare, cadre });
  }
  const of = (pick: (r: (typeof rounds)[number]) => number) => median(rounds.map(pick));
  return {
    bare: { ms: of((r) => r.bare.ms), peakKbPerRun: of((r) => r.bare.peakKbPerRun) },
    cadre: { ms: of((r) => r.cadre.ms), peakKbPerRun: of((r) => r.cadre.peakKbPerRun) },
    ratio: of((r) => r.cadre.ms / r.bare.ms),
  };
}

async function waitingRuns(setup: Setup) {
  const ctx = toolContext();
  // Parked heap minus the heap once the same runs have finished: the
  // difference is what the waiting runs hold, whatever earlier phases left.
  const measure = async (start: (model: GatedModel) => Promise<unknown>) => {
    const model = new GatedModel();
    const runs = Array.from({ length: CONCURRENT }, () => start(model));
    await new Promise((r) => setTimeout(r, 50));
    const held = heapUsed();
    model.open();
    await Promise.all(runs);
    runs.length = 0;
    return (held - heapUsed()) / 1024 / CONCURRENT;
  };
  await measure((model) => bareLoop(model, addTool, ctx)); // warm-up
  const bare = await measure((model) => bareLoop(model, addTool, ctx));
  const cadre = await measure((model) => cadreRun(setup, 1, 0, model));
  return { bare, cadre };
}

interface ImportTime {
  /** Median wall time of the import, in the process. */
  ms: number;
  /** Median CPU time (user + system) of the import: what it costs on a machine others share. */
  cpuMs: number;
  /** Median wall time of the whole process, start to exit, seen from here. */
  processMs: number;
}

const COLD_SAMPLES = 9;

/**
 * The entry imported in a fresh process, against a process that imports
 * nothing, the two alternating sample by sample so load on the machine
 * weighs on both alike.
 */
function coldImport(): { entry: ImportTime; baseline: ImportTime } {
  // The published build (npm run build:emit): dist-bench holds only what the benches import.
  const entry = fileURLToPath(new URL('../../dist/src/index.js', import.meta.url));
  const sample = (target: string | undefined): number[] => {
    const load = target === undefined ? '' : `await import(${JSON.stringify(target)});`;
    const script = `const c = process.cpuUsage(); const t = performance.now(); ${load} const u = process.cpuUsage(c); console.log(performance.now() - t, (u.user + u.system) / 1000);`;
    const started = performance.now();
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    return [...out.trim().split(' ').map(Number), performance.now() - started];
  };
  const entrySamples: number[][] = [];
  const baseSamples: number[][] = [];
  for (let i = 0; i < COLD_SAMPLES; i++) {
    baseSamples.push(sample(undefined));
    entrySamples.push(sample(entry));
  }
  const of = (samples: number[][]): ImportTime => ({
    ms: median(samples.map(([ms]) => ms as number)),
    cpuMs: median(samples.map(([, cpuMs]) => cpuMs as number)),
    processMs: median(samples.map(([, , processMs]) => processMs as number)),
  });
  return { entry: of(entrySamples), baseline: of(baseSamples) };
}

async function main(): Promise<void> {
  const definitions = new Map<number, AgentDefinition>();
  const setup: Setup = {
    runtime: await createRuntime(),
    tools: new ToolRegistry([addTool]),
    // Loaded once and reused, as a server or the CLI does: per-definition work is cached on it.
    definition: (turns) => {
      let found = definitions.get(turns);
      if (!found) definitions.set(turns, (found = workloadDefinition(turns)));
      return found;
    },
  };
  console.log(
    `Cadre benchmark (node ${process.version}, ${TURNS}-turn runs, scripted model: no network)\n`,
  );

  const turn = await perTurn(setup);
  console.log(`Per-turn overhead (CPU time, median of ${ROUNDS} alternating rounds)`);
  console.log(`  bare loop        ${turn.bare.toFixed(1)} µs/turn`);
  console.log(
    `  cadre executor   ${turn.cadre.toFixed(1)} µs/turn   ${turn.ratio.toFixed(1)}× bare   ${againstGoal(turn.ratio, GOALS.perTurn, '×')}`,
  );

  const conc = await concurrent(setup, TURN_DELAY_MS);
  console.log(
    `\n${CONCURRENT} concurrent ${CONCURRENT_TURNS}-turn runs, model waits ${TURN_DELAY_MS} ms per turn (median of ${CONCURRENT_ROUNDS} rounds)`,
  );
  console.log(
    `  bare loop        ${conc.bare.ms.toFixed(0)} ms wall   peak ${conc.bare.peakKbPerRun.toFixed(1)} KB/run`,
  );
  console.log(
    `  cadre executor   ${conc.cadre.ms.toFixed(0)} ms wall   peak ${conc.cadre.peakKbPerRun.toFixed(1)} KB/run   ${conc.ratio.toFixed(1)}× bare   ${againstGoal(conc.ratio, GOALS.concurrent, '×')}`,
  );
  // The same with a model that answers at once: no waiting to hide the runtime's own work.
  const instant = await concurrent(setup, 0);
  console.log(`  the same, model answers at once (no goal: the CPU side of the figure above)`);
  console.log(`  bare loop        ${instant.bare.ms.toFixed(0)} ms wall`);
  console.log(
    `  cadre executor   ${instant.cadre.ms.toFixed(0)} ms wall   ${instant.ratio.toFixed(1)}× bare`,
  );

  const waiting = await waitingRuns(setup);
  console.log(
    `\nRetained heap per waiting run (after GC, ${CONCURRENT} runs waiting on the model)`,
  );
  console.log(`  bare loop        ${waiting.bare.toFixed(1)} KB`);
  console.log(
    `  cadre executor   ${waiting.cadre.toFixed(1)} KB   ${ratio(waiting.cadre, waiting.bare)} bare   ${againstGoal(waiting.cadre, GOALS.waitingKb, ' KB')}`,
  );

  const cold = coldImport();
  console.log(
    `\nCold import (fresh process, median of ${COLD_SAMPLES}, alternating with a process that imports nothing; CPU is user + system; the goal is read against the lower of import wall and CPU time: wall time also counts waiting for a core on a shared machine, CPU time V8's background threads)`,
  );
  console.log(
    `  nothing          import ${cold.baseline.ms.toFixed(1)} ms   CPU ${cold.baseline.cpuMs.toFixed(1)} ms   process ${cold.baseline.processMs.toFixed(0)} ms`,
  );
  console.log(
    `  cadre entry      import ${cold.entry.ms.toFixed(1)} ms   CPU ${cold.entry.cpuMs.toFixed(1)} ms   process ${cold.entry.processMs.toFixed(0)} ms (+${(cold.entry.processMs - cold.baseline.processMs).toFixed(0)})   ${againstGoal(Math.min(cold.entry.ms, cold.entry.cpuMs), GOALS.coldImportMs, ' ms')}`,
  );
}

await main();
