import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.js';

describe('hostile HTML', () => {
  it('reads the title of a page of unclosed <title> tags without stalling', () => {
    // A lazy RegExp retried from every tag: about 20 s on this page, so the test's time limit
    // catches a return to it; the scan with indexOf reads it in milliseconds.
    const page = htmlToMarkdown('<title>'.repeat(150_000), 'https://example.com/');
    expect(page.title).toBeUndefined();
    expect(htmlToMarkdown('<TITLE >A &amp; B</title>', 'https://example.com/').title).toBe('A & B');
  });

  it('a page nested too deep for the converter still gives its text', () => {
    const html = `<title>Deep</title>${'<div>'.repeat(6_000)}the words${'</div>'.repeat(6_000)}`;
    const page = htmlToMarkdown(html, 'https://example.com/');
    expect(page.title).toBe('Deep');
    expect(page.markdown).toContain('the words');
  });
});
