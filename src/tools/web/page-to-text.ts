import { looksBinary } from '../builtin/binary.js';
import { formatCount, truncationNote } from '../builtin/output-cap.js';
import { decodeText } from './content-type.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { PAGE_TEXT_LIMITS } from './web-limits.js';

export type PageText =
  | { kind: 'text'; title?: string; content: string; truncated: boolean }
  | { kind: 'binary'; mimeType: string };

/** What `pageToText` reads from a fetched page. */
export interface PageSource {
  finalUrl: string;
  mimeType: string;
  charset?: string;
  body: Uint8Array;
  /** The body was cut at the download limit. */
  truncated: boolean;
}

export { PAGE_TEXT_LIMITS };

/** How a MIME type is read; `sniff` means the bytes decide. */
export type TypeClass = 'html' | 'text' | 'binary' | 'sniff';

const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-ndjson',
  'application/sql',
  'application/graphql',
  'application/x-sh',
  'application/x-www-form-urlencoded',
]);

export function classifyType(mimeType: string): TypeClass {
  if (mimeType === 'text/html' || mimeType === 'application/xhtml+xml') return 'html';
  if (mimeType.startsWith('text/')) return 'text';
  if (TEXT_APPLICATION_TYPES.has(mimeType)) return 'text';
  if (mimeType.endsWith('+json') || mimeType.endsWith('+xml')) return 'text';
  if (mimeType === '' || mimeType === 'application/octet-stream') return 'sniff';
  return 'binary';
}

/** Whether a body of this type is worth downloading at all. */
export const readableType = (mimeType: string): boolean => classifyType(mimeType) !== 'binary';

/**
 * A page as text for the model: HTML becomes Markdown with its title, other
 * text types come back as they are, binary types are reported, not decoded.
 * The text is cut at `maxChars` with a note saying so.
 */
export function pageToText(page: PageSource, maxChars: number): PageText {
  const kind = resolveClass(page);
  if (kind === 'binary') return { kind: 'binary', mimeType: page.mimeType || 'unknown type' };
  const text = decodeText(page.body, page.charset);
  const html = kind === 'html' ? clipHtml(text) : undefined;
  const { title, markdown } = html
    ? htmlToMarkdown(html.text, page.finalUrl)
    : { title: undefined, markdown: text };
  const capped = capText(markdown, maxChars);
  const notes = [
    ...(capped.cut ? [capped.note] : []),
    ...(html?.cut
      ? [
          `[truncated: only the first ${formatCount(MAX_HTML_CHARS)} characters of HTML were converted]`,
        ]
      : []),
    ...(page.truncated
      ? ['[truncated: the page is larger than the download limit; this is its beginning]']
      : []),
  ];
  const content = [capped.text, ...notes].filter((part) => part !== '').join('\n\n');
  return {
    kind: 'text',
    ...(title === undefined ? {} : { title }),
    content,
    truncated: capped.cut || html?.cut === true || page.truncated,
  };
}

/**
 * Converting HTML takes about a second per 1.5 MB and holds the event loop
 * meanwhile, so only this much of a page is converted.
 */
export const MAX_HTML_CHARS = 2_000_000;

/** Cuts HTML past `MAX_HTML_CHARS` at a tag start, so no tag is split. */
function clipHtml(html: string): { text: string; cut: boolean } {
  if (html.length <= MAX_HTML_CHARS) return { text: html, cut: false };
  const tag = html.lastIndexOf('<', MAX_HTML_CHARS);
  return { text: html.slice(0, tag > 0 ? tag : MAX_HTML_CHARS), cut: true };
}

function resolveClass(page: PageSource): Exclude<TypeClass, 'sniff'> {
  const declared = classifyType(page.mimeType);
  if (declared !== 'sniff') return declared;
  if (looksBinary(page.body)) return 'binary';
  const head = decodeText(page.body.subarray(0, 512), page.charset).trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') ? 'html' : 'text';
}

function capText(text: string, maxChars: number): { text: string; cut: boolean; note: string } {
  if (text.length <= maxChars) return { text, cut: false, note: '' };
  let end = maxChars;
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  const hint =
    maxChars < PAGE_TEXT_LIMITS.maxChars
      ? `pass a larger max_chars (up to ${formatCount(PAGE_TEXT_LIMITS.maxChars)}) to see more`
      : 'the rest of the page is not shown';
  return {
    text: text.slice(0, end),
    cut: true,
    note: truncationNote(end, text.length, 'characters', hint),
  };
}
