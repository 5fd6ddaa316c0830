import { describe, expect, it } from 'vitest';
import { classifyType, MAX_HTML_CHARS, pageToText, type PageSource } from './page-to-text.js';
import { ARTICLE } from './testing/test-support.js';

const BASE = 'https://docs.example/guide/intro.html';

const source = (body: string | Uint8Array, mimeType: string, extra: Partial<PageSource> = {}) => ({
  finalUrl: BASE,
  mimeType,
  body: typeof body === 'string' ? Buffer.from(body) : body,
  truncated: false,
  ...extra,
});

describe('pageToText', () => {
  it('turns HTML into Markdown with its title', () => {
    const text = pageToText(source(ARTICLE, 'text/html'), 50_000);
    expect(text).toMatchObject({ kind: 'text', title: 'Intro & Setup — Docs', truncated: false });
    expect(text.kind === 'text' && text.content).toContain('# Getting started');
  });

  it.each([
    ['text/plain', 'just *text*, kept as it is'],
    ['application/json', '{"a": [1, 2]}'],
    ['text/markdown', '# Heading\n\n- item'],
    ['application/xml', '<feed><entry>x</entry></feed>'],
    ['application/rss+xml', '<rss><channel/></rss>'],
    ['application/ld+json', '{"@type": "Thing"}'],
    ['text/csv', 'a,b\n1,2'],
  ])('returns %s as it is', (type, body) => {
    expect(pageToText(source(body, type), 50_000)).toEqual({
      kind: 'text',
      content: body,
      truncated: false,
    });
  });

  it('decodes the charset it is given', () => {
    const text = pageToText(
      source(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/plain', { charset: 'iso-8859-1' }),
      100,
    );
    expect(text).toMatchObject({ content: 'café' });
  });

  it.each(['image/png', 'application/pdf', 'application/zip', 'video/mp4', 'font/woff2'])(
    'reports %s as binary',
    (type) => {
      expect(pageToText(source(new Uint8Array([1, 2, 3]), type), 100)).toEqual({
        kind: 'binary',
        mimeType: type,
      });
    },
  );

  it('sniffs a body sent without a type, or as octet-stream', () => {
    expect(pageToText(source('plain words', ''), 100)).toMatchObject({ content: 'plain words' });
    expect(pageToText(source('<!DOCTYPE html><title>T</title><p>x', ''), 100)).toMatchObject({
      title: 'T',
      content: 'x',
    });
    expect(
      pageToText(source(new Uint8Array([0x50, 0, 0x4b]), 'application/octet-stream'), 100),
    ).toEqual({
      kind: 'binary',
      mimeType: 'application/octet-stream',
    });
    expect(pageToText(source(new Uint8Array([0, 1]), ''), 100)).toEqual({
      kind: 'binary',
      mimeType: 'unknown type',
    });
  });

  it('cuts long text at max_chars with a note', () => {
    const text = pageToText(source('x'.repeat(5_000), 'text/plain'), 1_000);
    expect(text).toEqual({
      kind: 'text',
      content:
        'x'.repeat(1_000) +
        '\n\n[truncated: showing 1,000 of 5,000 characters; pass a larger max_chars (up to 200,000) to see more]',
      truncated: true,
    });
  });

  it('never splits a surrogate pair', () => {
    const text = pageToText(source('ab😀cd', 'text/plain'), 3);
    expect(text.kind === 'text' && text.content.startsWith('ab\n\n')).toBe(true);
  });

  it('converts only the first MAX_HTML_CHARS of a huge HTML page, and says so', () => {
    const paragraph = '<p>word word word</p>';
    const html = `<title>Huge</title>${paragraph.repeat(MAX_HTML_CHARS / paragraph.length + 10)}`;
    const text = pageToText(source(html, 'text/html'), 200_000);
    expect(text).toMatchObject({ kind: 'text', title: 'Huge', truncated: true });
    expect(text.kind === 'text' && text.content).toMatch(
      /\[truncated: only the first 2,000,000 characters of HTML were converted\]$/,
    );
  });

  it('says when the download itself was cut', () => {
    const text = pageToText(source('beginning', 'text/plain', { truncated: true }), 100);
    expect(text).toEqual({
      kind: 'text',
      content:
        'beginning\n\n[truncated: the page is larger than the download limit; this is its beginning]',
      truncated: true,
    });
  });
});

describe('classifyType', () => {
  it.each([
    ['text/html', 'html'],
    ['application/xhtml+xml', 'html'],
    ['text/plain', 'text'],
    ['application/json', 'text'],
    ['application/vnd.api+json', 'text'],
    ['image/svg+xml', 'text'],
    ['application/javascript', 'text'],
    ['', 'sniff'],
    ['application/octet-stream', 'sniff'],
    ['image/jpeg', 'binary'],
    ['application/vnd.ms-excel', 'binary'],
  ])('%j is %s', (type, expected) => {
    expect(classifyType(type)).toBe(expected);
  });
});
