/** Longest sanitised message kept in an audit entry. */
export const MAX_SANITIZED_CHARS = 300;

const CREDENTIALS_IN_URL = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]*@/gi;
const EMAIL = /[a-z0-9!#$%&'*+/=?^_`{|}~.-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;
const MAILTO = /mailto:\S+/gi;
// Quoted text is where subjects, titles and bodies show up in reasons.
const DOUBLE_QUOTED = /"(?:[^"\\\r\n]|\\.)*"/g;
const CURLY_QUOTED = /[“«‘](?:[^”»’\r\n])*[”»’]/g;
// An apostrophe inside a word (don't) is not a quote: require a boundary before it.
const SINGLE_QUOTED = /(^|[\s(:=[,])'[^'\r\n]*'/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * A message safe for the audit log: no addresses, no quoted content (subjects,
 * titles, bodies), no URL credentials, one line, bounded length.
 */
export function sanitizeMessage(message: string): string {
  const cleaned = message
    .replace(CONTROL, ' ')
    .replace(CREDENTIALS_IN_URL, '$1[credentials]@')
    .replace(MAILTO, 'mailto:[email]')
    .replace(EMAIL, '[email]')
    .replace(DOUBLE_QUOTED, '"…"')
    .replace(CURLY_QUOTED, '"…"')
    .replace(SINGLE_QUOTED, "$1'…'")
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > MAX_SANITIZED_CHARS
    ? `${cleaned.slice(0, MAX_SANITIZED_CHARS - 1)}…`
    : cleaned;
}
