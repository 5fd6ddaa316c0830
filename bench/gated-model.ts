import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
  type ModelRequest,
} from '../src/model/types.js';

/** A model that answers only after `open()`: runs waiting on it are "paused". */
export class GatedModel implements ModelClient {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'gated';
  private readonly gate: Promise<void>;
  open: () => void = () => {};

  constructor() {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  async *generate(_request: ModelRequest, _signal: AbortSignal): AsyncIterable<ModelChunk> {
    await this.gate;
    yield { type: 'text', text: 'done' };
  }
}
