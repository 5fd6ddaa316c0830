import { ModelError } from '../errors/model-error.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../model/types.js';
import { realClock, type Clock } from '../util/clock.js';
import { diffJson } from './json-diff.js';
import { errorFromRecord } from './recorded-error.js';
import { ReplayDivergenceError, ReplayLog, type Divergence } from './replay-log.js';
import { matchableRequest, requestHash } from './request-hash.js';
import type { ModelStep } from './types.js';

/** The model that takes over after a fork; `model` replaces the request's model id. */
export interface LiveModel {
  client: ModelClient;
  model: string;
}

export interface ReplayModelOptions {
  /** Throw at the first divergence instead of playing the recorded step anyway. */
  strict?: boolean;
  /** Replay this many model calls, then hand over to `live` (a fork). */
  until?: number;
  /** Resolved on first use, so an unreachable live model fails only if the fork happens. */
  live?: () => LiveModel;
  /** Replay recorded delays, scaled (1 = as recorded); absent or 0 = no delays. */
  timingScale?: number;
  /** What those delays read and wait on; tests pass their own. */
  clock?: Clock;
  log?: ReplayLog;
}

/**
 * A ModelClient that answers from a trajectory, so any agent runs with no
 * network. Each request is matched by hash against the next recorded one
 * (another unplayed step with the same hash also matches, for concurrent
 * subagents); a mismatch is a divergence, reported with a diff.
 */
export class ReplayModel implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'replay';
  readonly log: ReplayLog;
  private readonly played: boolean[];
  private calls = 0;
  private liveModel?: LiveModel;

  constructor(
    private readonly steps: readonly ModelStep[],
    private readonly options: ReplayModelOptions = {},
  ) {
    this.log = options.log ?? new ReplayLog();
    this.played = steps.map(() => false);
  }

  async *generate(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    signal.throwIfAborted();
    const call = this.calls++;
    const until = this.options.until;
    if (until !== undefined && call >= until) {
      yield* this.goLive(request, signal, call);
      return;
    }
    const step = this.pick(request, call);
    this.log.model.replayed++;
    yield* this.play(step, signal);
  }

  private pick(request: ModelRequest, call: number): ModelStep {
    const expectedIndex = this.played.indexOf(false);
    const expected = expectedIndex < 0 ? undefined : this.steps[expectedIndex];
    if (!expected) {
      const divergence: Divergence = {
        kind: 'model_exhausted',
        step: call + 1,
        message: `Model step ${call + 1}: the agent asked for another model call, but the trajectory has only ${this.steps.length}. Fork with --until ${this.steps.length} and a live --model to go on.`,
      };
      this.log.diverge(divergence);
      throw new ReplayDivergenceError(divergence);
    }
    const hash = requestHash(request);
    const sameHash = this.steps.findIndex((s, i) => !this.played[i] && s.request_hash === hash);
    if (sameHash >= 0) {
      this.played[sameHash] = true;
      return this.steps[sameHash] as ModelStep;
    }
    const divergence: Divergence = {
      kind: 'model_request',
      step: expected.index + 1,
      message: `Model step ${expected.index + 1} of ${this.steps.length}: the request differs from the recording.`,
      recorded_hash: expected.request_hash,
      replayed_hash: hash,
      diff: diffJson(matchableRequest(expected.request), matchableRequest(request)),
    };
    this.log.diverge(divergence);
    if (this.options.strict) throw new ReplayDivergenceError(divergence);
    // Not strict: play the recorded answer anyway and keep going.
    this.played[expectedIndex] = true;
    return expected;
  }

  private async *play(step: ModelStep, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const scale = this.options.timingScale ?? 0;
    const clock = this.options.clock ?? realClock;
    const started = clock.now();
    for (const recorded of step.chunks) {
      if (scale > 0) {
        const wait = recorded.offset_ms * scale - (clock.now() - started);
        if (wait > 0) await clock.sleep(wait, signal);
      }
      signal.throwIfAborted();
      const { offset_ms: _offset, ...chunk } = recorded;
      yield chunk as ModelChunk;
    }
    if (step.error) throw errorFromRecord(step.error);
  }

  private async *goLive(
    request: ModelRequest,
    signal: AbortSignal,
    call: number,
  ): AsyncIterable<ModelChunk> {
    if (!this.options.live)
      throw new ModelError(
        `Replay was told to fork at model step ${call + 1}, but no live model was given.`,
      );
    this.liveModel ??= this.options.live();
    this.log.forkedAt ??= call + 1;
    this.log.model.live++;
    yield* this.liveModel.client.generate({ ...request, model: this.liveModel.model }, signal);
  }
}
