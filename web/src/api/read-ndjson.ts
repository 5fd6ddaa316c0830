/**
 * Yields one parsed JSON value per line of an NDJSON body as the bytes
 * arrive, so a run can be drawn while it is still going.
 */
export async function* readNdjson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) yield JSON.parse(line) as unknown;
        newline = buffer.indexOf('\n');
      }
    }
    finished = true;
    buffer += decoder.decode();
    if (buffer.trim()) yield JSON.parse(buffer) as unknown;
  } finally {
    // A consumer that stops early must not leave the response half-read.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
