import { describe, expect, it } from 'vitest';
import { decodeText, parseContentType, sniffHtmlCharset } from './content-type.js';

describe('content types and charsets', () => {
  it.each([
    ['text/html; charset=UTF-8', { mimeType: 'text/html', charset: 'utf-8' }],
    ['Text/Plain;Charset="ISO-8859-1"', { mimeType: 'text/plain', charset: 'iso-8859-1' }],
    ['application/json', { mimeType: 'application/json' }],
    [undefined, { mimeType: '' }],
    ['text/plain; format=flowed; charset=', { mimeType: 'text/plain' }],
  ])('parseContentType(%j)', (header, expected) => {
    expect(parseContentType(header)).toEqual(expected);
  });

  it('finds a meta charset near the top of an HTML page', () => {
    const page = (head: string): Uint8Array => Buffer.from(`<html><head>${head}</head></html>`);
    expect(sniffHtmlCharset(page('<meta charset="Shift_JIS">'))).toBe('shift_jis');
    expect(
      sniffHtmlCharset(
        page('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'),
      ),
    ).toBe('windows-1251');
    expect(sniffHtmlCharset(page('<meta name="x">'))).toBeUndefined();
  });

  it('decodes with the named charset and falls back to UTF-8 for unknown labels', () => {
    expect(decodeText(Buffer.from([0xe9]), 'latin1')).toBe('é');
    expect(decodeText(Buffer.from([0x93, 0x94]), 'windows-1252')).toBe('“”');
    expect(decodeText(Buffer.from('héllo'), 'no-such-charset')).toBe('héllo');
    expect(decodeText(Buffer.from('\uFEFFbom'), undefined)).toBe('bom');
  });
});
