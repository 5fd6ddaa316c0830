import { describe, expect, it } from 'vitest';
import { readNdjson } from './read-ndjson.js';

function body(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const value of readNdjson(stream)) values.push(value);
  return values;
}

describe('readNdjson', () => {
  it('joins lines split across chunks, even inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('{"delta":"caf\u00e9"}\n\n{"n":2}\n{"n":3}');
    const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of é
    const values = await all(
      body([bytes.slice(0, cut), bytes.slice(cut, cut + 5), bytes.slice(cut + 5)]),
    );
    expect(values).toEqual([{ delta: 'café' }, { n: 2 }, { n: 3 }]);
  });

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"n":1}\n{"n":2}\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const value of readNdjson(stream)) {
      expect(value).toEqual({ n: 1 });
      break;
    }
    expect(cancelled).toBe(true);
  });
});
