/**
 * Short names for a few small instruct models with tool use, so
 * `local:qwen3-0.6b` and `cadre models pull qwen3-0.6b` need no hub URI.
 * Each names a GGUF repository on the Hugging Face hub and a quantisation.
 */

export interface LocalModelAlias {
  readonly alias: string;
  readonly uri: string;
  /** The GGUF file's size, roughly, as the hub lists it. */
  readonly size: string;
  readonly licence: string;
}

export const LOCAL_MODEL_ALIASES: readonly LocalModelAlias[] = [
  {
    alias: 'qwen3-0.6b',
    uri: 'hf:Qwen/Qwen3-0.6B-GGUF:Q8_0',
    size: '0.64 GB',
    licence: 'Apache-2.0',
  },
  {
    alias: 'qwen3-1.7b',
    uri: 'hf:Qwen/Qwen3-1.7B-GGUF:Q8_0',
    size: '1.8 GB',
    licence: 'Apache-2.0',
  },
  {
    alias: 'qwen2.5-1.5b',
    uri: 'hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M',
    size: '1.1 GB',
    licence: 'Apache-2.0',
  },
  {
    alias: 'llama3.2-1b',
    uri: 'hf:bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M',
    size: '0.81 GB',
    licence: 'Llama 3.2 Community License',
  },
];

/** The hub URI an alias stands for; undefined for anything else (a file, a URI). */
export function localModelAlias(spec: string): string | undefined {
  const name = spec.trim().toLowerCase();
  return LOCAL_MODEL_ALIASES.find((entry) => entry.alias === name)?.uri;
}
