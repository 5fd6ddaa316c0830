import { runSpawningTree } from '../src/testing/spawning-tree.js';

/**
 * How far a run tree can overrun `max_cost_usd`: a self-spawning agent making
 * 8 parallel `task` calls per turn, 3 levels deep, on gemini-2.5-flash's list
 * price (scripted model; every call writes its whole output limit). Input is
 * billed at a token per 4 characters of the request times a factor: 1 is a
 * tokenizer's count (the reservation's 3 characters a token covers it), higher
 * factors are input the estimate misjudges, the one thing a reservation
 * cannot know before the call. The first settled call calibrates the
 * estimate for the tree, so only a factor that varies keeps misjudging.
 */
const CAPS = [0.1, 1];
/** Fixed factors, then one that varies from 1 to 3 call by call (deterministic). */
const INPUT_FACTORS: Array<{ label: string; factor: number | ((call: number) => number) }> = [
  { label: 'x1', factor: 1 },
  { label: 'x2', factor: 2 },
  { label: 'x3', factor: 3 },
  { label: 'x1..3', factor: (call) => 1 + 2 * Math.abs(Math.sin(call * 12.9898)) },
];

async function main(): Promise<void> {
  console.log(
    'Tree budget: 3 levels x 8 parallel task calls per turn (scripted model, real prices)',
  );
  let worst = -Infinity;
  for (const capUsd of CAPS) {
    for (const { label, factor } of INPUT_FACTORS) {
      const tree = await runSpawningTree({ capUsd, inputFactor: factor, fanOut: 8, levels: 3 });
      const overrun = tree.spentUsd - capUsd;
      worst = Math.max(worst, overrun);
      console.log(
        `  cap $${capUsd}  input ${label.padEnd(5)}  ${String(tree.calls).padStart(4)} calls  ` +
          `spent $${tree.spentUsd.toFixed(5)}  overrun $${overrun.toFixed(5)} ` +
          `(${(overrun / tree.costliestCallUsd).toFixed(2)} of its costliest call, $${tree.costliestCallUsd.toFixed(5)})  ` +
          `${tree.result.terminate_reason}`,
      );
    }
  }
  console.log(`  worst overrun: $${worst.toFixed(5)}`);
}

await main();
