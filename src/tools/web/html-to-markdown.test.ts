import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToMarkdown } from './html-to-markdown.js';
import { ARTICLE } from './testing/test-support.js';

const BASE = 'https://docs.example/guide/intro.html';

describe('htmlToMarkdown', () => {
  const { title, markdown } = htmlToMarkdown(ARTICLE, BASE);

  it('reads the title with its entities decoded', () => {
    expect(title).toBe('Intro & Setup — Docs');
  });

  it('keeps headings, links made absolute, lists, code and images with alt text', () => {
    expect(markdown).toContain('# Getting started');
    expect(markdown).toContain('## Steps');
    expect(markdown).toContain('[API reference](https://docs.example/api/index.html)');
    expect(markdown).toMatch(/1\.\s+Install\n2\.\s+Run/);
    expect(markdown).toMatch(/-\s+fast\n-\s+small/);
    expect(markdown).toContain('```sh\nnpm install cadre\n```');
    expect(markdown).toContain('![Diagram](https://docs.example/img/diagram.png)');
    expect(markdown).not.toContain('spacer.gif');
  });

  it('keeps the text of a link it cannot follow, without the link', () => {
    expect(markdown).toContain('or this.');
    expect(markdown).not.toContain('javascript:');
  });

  it.each([
    'window.tracking',
    'color: red',
    'Menu A',
    'Blog',
    'secret hidden text',
    'decorative',
    'enable js',
    'svg text',
    'ads.example',
    'Related posts',
    'Docs Inc',
    'breadcrumbs',
    'Intro & Setup',
  ])('drops the noise %j', (noise) => {
    expect(markdown).not.toContain(noise);
  });

  it('has no title when the page has none', () => {
    expect(htmlToMarkdown('<p>hi</p>', BASE)).toEqual({ markdown: 'hi' });
  });

  it('renders data tables as pipe tables, with a caption and escaped pipes', () => {
    const html =
      '<table><caption>Limits</caption><thead><tr><th>Name</th><th>a | b</th></tr></thead>' +
      '<tbody><tr><td><a href="/n">n</a></td><td><code>1</code></td></tr></tbody></table>';
    expect(htmlToMarkdown(html, BASE).markdown).toBe(
      'Limits\n\n| Name | a \\| b |\n| --- | --- |\n| [n](https://docs.example/n) | `1` |',
    );
  });

  it('converts a long table in linear time', () => {
    const rows = '<tr><td>cell <a href="/x">link</a></td><td>2</td></tr>'.repeat(5_000);
    const started = performance.now();
    const { markdown } = htmlToMarkdown(`<table>${rows}</table>`, BASE);
    expect(markdown.split('\n')).toHaveLength(5_001);
    // Questions about the whole table asked per cell would make this quadratic.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('leaves layout tables as paragraphs', () => {
    const html = '<table><tr><td><p>first</p><p>second</p></td><td>side</td></tr></table>';
    expect(htmlToMarkdown(html, BASE).markdown).toBe('first\n\nsecond\n\nside');
  });

  it('keeps preformatted text without <code> as a code block', () => {
    expect(htmlToMarkdown('<pre>line one\n  indented</pre>', BASE).markdown).toBe(
      '```\nline one\n  indented\n```',
    );
  });

  it('escapes parentheses in link targets', () => {
    expect(htmlToMarkdown('<a href="/wiki/Foo_(bar)">Foo</a>', BASE).markdown).toBe(
      '[Foo](https://docs.example/wiki/Foo_%28bar%29)',
    );
  });
});

describe('decodeEntities', () => {
  it('decodes numeric and named references, leaving unknown names as written', () => {
    expect(decodeEntities('a &lt;b&gt; &#39;c&#x27; &unknown; &#0;')).toBe(
      "a <b> 'c' &unknown; \ufffd",
    );
  });

  it('knows every name HTML defines, not only the common ones', () => {
    expect(decodeEntities('&eacute;t&eacute; &rarr; &frac12;&nbsp;&euro; &hearts;')).toBe(
      'été → ½ € ♥',
    );
  });
});
