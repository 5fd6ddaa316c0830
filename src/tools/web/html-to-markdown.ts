import TurndownService from 'turndown';
import { decodeEntities } from './html-entities.js';
import { pipeTables } from './markdown-tables.js';

export { decodeEntities };

/** The part of a DOM element the rules read (turndown parses with its own DOM in Node). */
interface Element {
  nodeName: string;
  getAttribute(name: string): string | null;
  parentNode: Element | null;
  firstChild: Element | null;
  textContent: string | null;
}

export interface MarkdownPage {
  title?: string;
  markdown: string;
}

/** Page furniture and non-text elements: dropped with everything inside them. */
const NOISE_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'HEAD',
  'TITLE',
  'SVG',
  'CANVAS',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'NAV',
  'FOOTER',
  'ASIDE',
  'FORM',
  'BUTTON',
  'INPUT',
  'SELECT',
  'TEXTAREA',
  'DIALOG',
]);
const NOISE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'menu', 'menubar']);

function isNoise(node: Element): boolean {
  const tag = node.nodeName.toUpperCase();
  if (NOISE_TAGS.has(tag)) return true;
  if (node.getAttribute('aria-hidden') === 'true' || node.getAttribute('hidden') !== null)
    return true;
  if (NOISE_ROLES.has(node.getAttribute('role') ?? '')) return true;
  // A site header is furniture; an article's own header holds its headline.
  return tag === 'HEADER' && !insideContent(node);
}

function insideContent(node: Element): boolean {
  for (let parent = node.parentNode; parent !== null; parent = parent.parentNode) {
    const tag = parent.nodeName.toUpperCase();
    if (tag === 'ARTICLE' || tag === 'MAIN' || tag === 'SECTION') return true;
  }
  return false;
}

/** Parentheses would end a Markdown link target early. */
const linkTarget = (url: string): string => url.replace(/\(/g, '%28').replace(/\)/g, '%29');

/** `href` made absolute against the page, or undefined for ones a reader cannot follow. */
function absolute(href: string | null, base: string): string | undefined {
  if (href === null || href.trim() === '') return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:'
      ? url.href
      : undefined;
  } catch {
    return undefined;
  }
}

function converter(baseUrl: string): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
  });
  service.remove((node) => isNoise(node as Element));
  // Links and images point back at the page's site, so relative ones are made absolute.
  service.addRule('absoluteLinks', {
    filter: (node) => (node as Element).nodeName === 'A',
    replacement: (content, node) => {
      const href = absolute((node as Element).getAttribute('href'), baseUrl);
      const text = content.trim();
      if (href === undefined || text === '') return content;
      return `[${text}](${linkTarget(href)})`;
    },
  });
  service.addRule('absoluteImages', {
    filter: (node) => (node as Element).nodeName === 'IMG',
    replacement: (_content, node) => {
      const element = node as Element;
      const alt = (element.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      const src = absolute(element.getAttribute('src'), baseUrl);
      if (alt === '' || src === undefined) return '';
      return `![${alt.replace(/[[\]]/g, '\\$&')}](${linkTarget(src)})`;
    },
  });
  // Preformatted text without <code> is still code: keep its lines and indentation.
  service.addRule('bareCodeBlock', {
    filter: (node) => {
      const element = node as Element;
      return element.nodeName === 'PRE' && element.firstChild?.nodeName !== 'CODE';
    },
    replacement: (_content, node) => {
      const code = ((node as Element).textContent ?? '').replace(/\n$/, '');
      const fence = code.includes('```') ? '~~~' : '```';
      return `\n\n${fence}\n${code}\n${fence}\n\n`;
    },
  });
  service.use(pipeTables);
  return service;
}

/** Converts an HTML page to Markdown, dropping page furniture, and reads its `<title>`. */
export function htmlToMarkdown(html: string, baseUrl: string): MarkdownPage {
  const markdown = toMarkdown(html, baseUrl)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const title = readTitle(html);
  return title === undefined ? { markdown } : { title, markdown };
}

/**
 * turndown walks the DOM recursively: thousands of nested elements overflow
 * the stack. Such a page still gives its text, without the Markdown.
 */
function toMarkdown(html: string, baseUrl: string): string {
  try {
    return converter(baseUrl).turndown(html);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return decodeEntities(
      html.replace(/<(script|style)\b[^<>]*>[^<]*<\/\1\s*>/gi, '').replace(/<[^<>]*>/g, ' '),
    );
  }
}

/**
 * The first `<title>`'s text. Found with indexOf, not a lazy RegExp: on a
 * page of unclosed `<title>` tags a RegExp retries from each one (quadratic).
 */
function readTitle(html: string): string | undefined {
  const lower = html.toLowerCase();
  let open = lower.indexOf('<title');
  while (open >= 0 && /[a-z0-9-]/.test(lower.charAt(open + 6)))
    open = lower.indexOf('<title', open + 6);
  if (open < 0) return undefined;
  const start = lower.indexOf('>', open);
  const end = start < 0 ? -1 : lower.indexOf('</title', start);
  if (end < 0) return undefined;
  const title = decodeEntities(html.slice(start + 1, end).replace(/<[^<>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
  return title === '' ? undefined : title;
}
