/** Marks the cursor's layout, so a later one (say, by time) can tell old cursors apart. */
const VERSION = 'a1:';
/** Ids are at most 200 characters (request-schemas); a longer cursor is not ours. */
const MAX_ID = 200;

/** An opaque cursor for the page after the approval `id`: clients pass it back, never build it. */
export function encodeApprovalCursor(id: string): string {
  return Buffer.from(`${VERSION}${id}`, 'utf8').toString('base64url');
}

/** The approval id a cursor names, or undefined for one this server did not give. */
export function decodeApprovalCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,300}$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(VERSION)) return undefined;
  const id = text.slice(VERSION.length);
  return id !== '' && id.length <= MAX_ID && /^[\x21-\x7e]+$/.test(id) ? id : undefined;
}
