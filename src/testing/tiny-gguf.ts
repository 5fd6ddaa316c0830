/**
 * A generated random-weight llama-architecture model for tests: 2 layers,
 * 64-wide, a byte-level vocabulary (GPT-2's byte-to-character map, no
 * merges, so every byte is one token and any text round-trips), about
 * 460 KB. It says nothing sensible; grammars make its tool calls parse.
 */
import { writeGguf, type GgufTensor, type GgufValue } from './gguf-writer.js';

export interface TinyModelOptions {
  /** `llama.context_length`: the window the model was "trained" on. */
  contextLength?: number;
  /** Seeds the weights: the same seed writes the same bytes. */
  seed?: number;
  /**
   * A character the model prefers wherever a grammar allows it: one hidden
   * dimension is held constant and the output row of this byte reads it, a
   * bias on top of the random weights. Tests use it to make a random model's
   * choices (which tool it names) stable whatever the prompt says.
   */
  favour?: string;
}

export const TINY_MODEL_NAME = 'cadre-tiny-random';
const EMBED = 64;
const HEADS = 4;
const LAYERS = 2;
const FFN = 128;
const BOS = 256;
/** Dimension 0 of every embedding when a character is favoured, and its weight in that byte's output row. */
const BIAS_DIMENSION_VALUE = 16;
const BIAS_WEIGHT = 4;
const EOS = 257;

export function tinyLlamaGguf(options: TinyModelOptions = {}): Uint8Array {
  const random = mulberry32(options.seed ?? 1);
  const tokens = [...byteTokens(), '<|bos|>', '<|endoftext|>'];
  const vocab = tokens.length;
  // 1 = normal, 3 = control.
  const types = tokens.map((_, id) => (id >= BOS ? 3 : 1));
  const metadata: Record<string, GgufValue> = {
    'general.architecture': { type: 'string', value: 'llama' },
    'general.name': { type: 'string', value: TINY_MODEL_NAME },
    'general.alignment': { type: 'u32', value: 32 },
    'llama.context_length': { type: 'u32', value: options.contextLength ?? 2048 },
    'llama.embedding_length': { type: 'u32', value: EMBED },
    'llama.block_count': { type: 'u32', value: LAYERS },
    'llama.feed_forward_length': { type: 'u32', value: FFN },
    'llama.attention.head_count': { type: 'u32', value: HEADS },
    'llama.attention.head_count_kv': { type: 'u32', value: HEADS },
    'llama.attention.layer_norm_rms_epsilon': { type: 'f32', value: 1e-5 },
    'llama.rope.dimension_count': { type: 'u32', value: EMBED / HEADS },
    'llama.vocab_size': { type: 'u32', value: vocab },
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.pre': { type: 'string', value: 'default' },
    'tokenizer.ggml.tokens': { type: 'strings', value: tokens },
    'tokenizer.ggml.token_type': { type: 'i32s', value: types },
    'tokenizer.ggml.merges': { type: 'strings', value: [] },
    'tokenizer.ggml.bos_token_id': { type: 'u32', value: BOS },
    'tokenizer.ggml.eos_token_id': { type: 'u32', value: EOS },
    'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
  };
  const weights = (name: string, dims: readonly number[], scale: number): GgufTensor => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = (random() * 2 - 1) * scale;
    return { name, dims, data };
  };
  const ones = (name: string): GgufTensor => ({
    name,
    dims: [EMBED],
    data: new Float32Array(EMBED).fill(1),
  });
  const embeddings = weights('token_embd.weight', [EMBED, vocab], 1);
  const output = weights('output.weight', [EMBED, vocab], 0.05);
  if (options.favour !== undefined) {
    const favoured = options.favour.charCodeAt(0);
    for (let token = 0; token < vocab; token++)
      embeddings.data[token * EMBED] = BIAS_DIMENSION_VALUE;
    output.data[favoured * EMBED] = BIAS_WEIGHT;
  }
  const tensors: GgufTensor[] = [embeddings, ones('output_norm.weight'), output];
  for (let layer = 0; layer < LAYERS; layer++) {
    const blk = `blk.${layer}`;
    tensors.push(
      ones(`${blk}.attn_norm.weight`),
      weights(`${blk}.attn_q.weight`, [EMBED, EMBED], 0.2),
      weights(`${blk}.attn_k.weight`, [EMBED, EMBED], 0.2),
      weights(`${blk}.attn_v.weight`, [EMBED, EMBED], 0.2),
      weights(`${blk}.attn_output.weight`, [EMBED, EMBED], 0.2),
      ones(`${blk}.ffn_norm.weight`),
      weights(`${blk}.ffn_gate.weight`, [EMBED, FFN], 0.2),
      weights(`${blk}.ffn_up.weight`, [EMBED, FFN], 0.2),
      weights(`${blk}.ffn_down.weight`, [FFN, EMBED], 0.2),
    );
  }
  return writeGguf(metadata, tensors);
}

/** GPT-2's byte-level alphabet: byte b is the token `tokens[b]`. */
function byteTokens(): string[] {
  const printable = (b: number): boolean =>
    (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let shifted = 0;
  return Array.from({ length: 256 }, (_, b) =>
    String.fromCodePoint(printable(b) ? b : 256 + shifted++),
  );
}

/** A small seeded PRNG: the fixture must be the same file on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
