/** How much of a file's head is inspected; git uses the same window. */
const SNIFF_BYTES = 8000;

/** A NUL byte in the head marks a file as binary (git's heuristic): text tools skip or refuse it. */
export function looksBinary(content: Uint8Array): boolean {
  return content.subarray(0, SNIFF_BYTES).includes(0);
}
