import type { CadreEvent } from '../events/types.js';

/** Streams the events of any run started by `begin` with the options it is given. */
export async function* streamEvents<O extends { signal?: AbortSignal }>(
  begin: (
    options: O & { signal: AbortSignal; onEvent: (event: CadreEvent) => void },
  ) => Promise<unknown>,
  options: O,
): AsyncGenerator<CadreEvent, void, undefined> {
  const queue: CadreEvent[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let failure: { error: unknown } | undefined;
  const controller = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, controller.signal])
    : controller.signal;

  const run = begin({
    ...options,
    signal,
    onEvent: (event) => {
      queue.push(event);
      wake?.();
    },
  }).then(
    () => {
      done = true;
      wake?.();
    },
    (error: unknown) => {
      failure = { error };
      done = true;
      wake?.();
    },
  );

  try {
    for (;;) {
      const event = queue.shift();
      if (event) {
        yield event;
        continue;
      }
      if (failure) throw failure.error;
      if (done) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    if (!done) controller.abort();
    await run;
  }
}
