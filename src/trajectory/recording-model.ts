import {
  MODEL_SPECIFICATION_VERSION,
  addUsage,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../model/types.js';
import { jsonClone } from '../util/json-hash.js';
import { recordError } from './recorded-error.js';
import { normaliseRequest, requestHash } from './request-hash.js';
import type { StepLog } from './step-log.js';
import type { ModelStep } from './types.js';

/**
 * Decorates any ModelClient: every call becomes a model step (normalised
 * request and its hash, each chunk with its arrival time, retries, usage,
 * duration, the final error) while the chunks pass through unchanged.
 * The inner client's `contextWindow` is not passed on: a replay cannot tell
 * it, so a recorded run learns its window as its replay will.
 */
export class RecordingModel implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider: string;

  constructor(
    private readonly inner: ModelClient,
    private readonly log: StepLog,
  ) {
    this.provider = inner.provider;
    log.providers.add(inner.provider);
  }

  async *generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const normalised = normaliseRequest(request);
    const step: ModelStep = {
      index: this.log.modelSteps.length,
      started_at: new Date().toISOString(),
      duration_ms: 0,
      request: normalised,
      request_hash: requestHash(normalised),
      chunks: [],
      retries: [],
    };
    // Taken at call start, so concurrent calls (subagents) keep call order.
    this.log.modelSteps.push(step);
    const started = performance.now();
    try {
      for await (const chunk of this.inner.generate(request, signal)) {
        const offset = Math.round(performance.now() - started);
        step.chunks.push({ ...jsonClone(chunk), offset_ms: offset });
        if (chunk.type === 'usage')
          step.usage = step.usage ? addUsage(step.usage, chunk.usage) : chunk.usage;
        if (chunk.type === 'retry')
          step.retries.push({
            attempt: chunk.attempt,
            delay_ms: chunk.delayMs,
            reason: chunk.reason,
          });
        yield chunk;
      }
    } catch (error) {
      step.error = recordError(error);
      throw error;
    } finally {
      step.duration_ms = Math.round(performance.now() - started);
    }
  }
}
