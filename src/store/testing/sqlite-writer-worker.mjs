// One "process" writing to a shared SQLite file: opens its own Store and
// appends audit entries (and run events when given a run) with short pauses.
import { register } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';

register('./ts-resolve-hooks.mjs', import.meta.url);
const { openStore } = await import('../open-store.ts');

const { file, runId, count, name, auditKey } = workerData;
const store = await openStore({ url: file, auditKey: Buffer.from(auditKey, 'hex') });
// Start together: without this barrier one writer is often done before the other has loaded.
parentPort.postMessage({ ready: true });
await new Promise((resolve) => parentPort.once('message', resolve));
let outcome = { ok: true };
try {
  for (let i = 0; i < count; i++) {
    // Idle a moment between writes, as a server does: SQLite's lock is not fair, so a writer
    // looping without pause keeps it and the other only waits, which would test nothing.
    await sleep(1);
    await store.audit.append({ message: `${name} ${i}`, runId });
    if (runId === undefined) continue;
    await store.events.append(runId, [
      {
        type: 'text_delta',
        message: name,
        timestamp: new Date().toISOString(),
        data: {},
        runId,
        executionId: runId,
        depth: 0,
        path: [name],
        seq: 0,
      },
    ]);
  }
} catch (error) {
  outcome = { ok: false, error: String(error?.stack ?? error) };
} finally {
  // Close before reporting, so the test never deletes files this thread still has open.
  await store.close();
}
parentPort.postMessage(outcome);
