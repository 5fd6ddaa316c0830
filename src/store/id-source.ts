import { randomBytes } from 'node:crypto';

/**
 * Makes UUIDv7 ids (RFC 9562): a millisecond timestamp, then a counter, then
 * random bits. Ids from one source sort in creation order even within one
 * millisecond, so "order by id" lists actions and approvals as they were made.
 */
export function createIdSource(clock: () => number = Date.now): () => string {
  let lastMs = 0;
  let counter = 0;
  // Random bytes drawn 4 KiB at a time: one call per id was a measurable part of each run.
  let pool = Buffer.alloc(0);
  let offset = 0;
  const randomBytesOf = (size: number): Buffer => {
    if (offset + size > pool.length) {
      pool = randomBytes(4096);
      offset = 0;
    }
    const bytes = Buffer.from(pool.subarray(offset, offset + size));
    offset += size;
    return bytes;
  };
  return () => {
    const time = clock();
    if (time > lastMs) {
      lastMs = time;
      counter = randomBytesOf(2).readUInt16BE() & 0x3ff; // leave headroom below 0xfff
    } else if (++counter > 0xfff) {
      lastMs += 1; // the counter ran out in this millisecond: borrow the next one
      counter = 0;
    }
    const bytes = randomBytesOf(16);
    bytes.writeUIntBE(lastMs, 0, 6);
    bytes[6] = 0x70 | (counter >> 8);
    bytes[7] = counter & 0xff;
    bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}
