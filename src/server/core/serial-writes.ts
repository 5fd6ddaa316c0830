/** Writes that run one at a time, in the order they were asked for. */
export type SerialWrites = <T>(write: () => Promise<T>) => Promise<T>;

/**
 * A queue of writes, each started once the one before it settled. After a
 * write fails, every later one fails with that error and never runs: a
 * run's records must not go on with a gap in them.
 */
export function serialWrites(): SerialWrites {
  let chain: Promise<unknown> = Promise.resolve();
  let failure: unknown;
  return <T>(write: () => Promise<T>): Promise<T> => {
    const result = chain.then(() => {
      if (failure) throw failure;
      return write();
    });
    chain = result.catch((error: unknown) => (failure ??= error));
    return result;
  };
}
