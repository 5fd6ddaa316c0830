import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../../src/model/types.js';

/**
 * Wraps a scripted model so a test can stop an answer after its first text
 * chunk: what the page shows then proves the text arrives while the run is
 * still going, with no timing guesses.
 */
export class GatedModel implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'scripted';
  private gate: Promise<void> | undefined;
  private before: Promise<void> | undefined;

  constructor(private readonly inner: ModelClient) {}

  /** Until the returned function is called, answers stop after their first text chunk. */
  hold(): () => void {
    let release = () => {};
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.gate = undefined;
      release();
    };
  }

  /** Until the returned function is called, every answer waits before its first chunk. */
  holdAnswers(): () => void {
    let release = () => {};
    this.before = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.before = undefined;
      release();
    };
  }

  async *generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    if (this.before) await untilAborted(this.before, signal);
    let texts = 0;
    for await (const chunk of this.inner.generate(request, signal)) {
      if (chunk.type === 'text' && texts++ === 1 && this.gate)
        await untilAborted(this.gate, signal);
      yield chunk;
    }
  }
}

function untilAborted(gate: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void gate.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
