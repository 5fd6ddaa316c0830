/**
 * A minimal GGUF (v3) writer for test fixtures: metadata and F32 tensors,
 * laid out as llama.cpp reads them (little-endian, 32-byte aligned data).
 * Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 */

/** A metadata value, tagged with the GGUF type it is written as. */
export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'strings'; value: readonly string[] }
  | { type: 'f32s'; value: readonly number[] }
  | { type: 'i32s'; value: readonly number[] };

export interface GgufTensor {
  name: string;
  /** ggml order: the innermost (contiguous) dimension first. */
  dims: readonly number[];
  data: Float32Array;
}

const ALIGNMENT = 32;
const MAGIC = 0x46554747; // "GGUF"
const VERSION = 3;
const T_U32 = 4;
const T_I32 = 5;
const T_F32 = 6;
const T_BOOL = 7;
const T_STRING = 8;
const T_ARRAY = 9;
const GGML_F32 = 0;

/** Collects bytes into growing chunks; little-endian throughout. */
class Bytes {
  readonly #chunks: Uint8Array[] = [];
  length = 0;

  push(bytes: Uint8Array): void {
    this.#chunks.push(bytes);
    this.length += bytes.byteLength;
  }
  u32(n: number): void {
    const b = new DataView(new ArrayBuffer(4));
    b.setUint32(0, n, true);
    this.push(new Uint8Array(b.buffer));
  }
  i32(n: number): void {
    const b = new DataView(new ArrayBuffer(4));
    b.setInt32(0, n, true);
    this.push(new Uint8Array(b.buffer));
  }
  u64(n: number): void {
    const b = new DataView(new ArrayBuffer(8));
    b.setBigUint64(0, BigInt(n), true);
    this.push(new Uint8Array(b.buffer));
  }
  f32(n: number): void {
    const b = new DataView(new ArrayBuffer(4));
    b.setFloat32(0, n, true);
    this.push(new Uint8Array(b.buffer));
  }
  string(s: string): void {
    const utf8 = new TextEncoder().encode(s);
    this.u64(utf8.byteLength);
    this.push(utf8);
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    if (pad > 0) this.push(new Uint8Array(pad));
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const chunk of this.#chunks) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    return out;
  }
}

function writeValue(out: Bytes, value: GgufValue): void {
  switch (value.type) {
    case 'u32':
      out.u32(T_U32);
      out.u32(value.value);
      return;
    case 'f32':
      out.u32(T_F32);
      out.f32(value.value);
      return;
    case 'bool':
      out.u32(T_BOOL);
      out.push(new Uint8Array([value.value ? 1 : 0]));
      return;
    case 'string':
      out.u32(T_STRING);
      out.string(value.value);
      return;
    case 'strings':
      out.u32(T_ARRAY);
      out.u32(T_STRING);
      out.u64(value.value.length);
      for (const s of value.value) out.string(s);
      return;
    case 'f32s':
      out.u32(T_ARRAY);
      out.u32(T_F32);
      out.u64(value.value.length);
      for (const n of value.value) out.f32(n);
      return;
    case 'i32s':
      out.u32(T_ARRAY);
      out.u32(T_I32);
      out.u64(value.value.length);
      for (const n of value.value) out.i32(n);
      return;
    default:
      value satisfies never;
  }
}

/** The whole file: header, metadata, tensor infos, then the aligned tensor data. */
export function writeGguf(
  metadata: Readonly<Record<string, GgufValue>>,
  tensors: readonly GgufTensor[],
): Uint8Array {
  const out = new Bytes();
  out.u32(MAGIC);
  out.u32(VERSION);
  out.u64(tensors.length);
  out.u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    const count = tensor.dims.reduce((a, b) => a * b, 1);
    if (count !== tensor.data.length)
      throw new Error(`${tensor.name}: dims hold ${count} values, data has ${tensor.data.length}`);
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const d of tensor.dims) out.u64(d);
    out.u32(GGML_F32);
    out.u64(offset);
    offset += align(tensor.data.byteLength);
  }
  out.padTo(ALIGNMENT);
  for (const tensor of tensors) {
    out.push(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.padTo(ALIGNMENT);
  }
  return out.concat();
}

const align = (n: number): number => Math.ceil(n / ALIGNMENT) * ALIGNMENT;
