import { describe, expect, it } from 'vitest';
import { checkEmailAddress } from './email-address.js';
import { MAIL_LIMITS, normalizeMailArgs } from './mail-args.js';

describe('checkEmailAddress', () => {
  it.each([
    ['alice@example.com', 'alice@example.com'],
    ['  Alice.Smith+tag@Mail.Example.CO.uk ', 'alice.smith+tag@mail.example.co.uk'],
    ["o'brien@example.ie", "o'brien@example.ie"],
    ['x@xn--bcher-kva.example', 'x@xn--bcher-kva.example'],
    ['a@example.xn--p1ai', 'a@example.xn--p1ai'],
  ])('accepts %j', (raw, expected) => {
    expect(checkEmailAddress(raw)).toEqual({ ok: true, address: expected });
  });

  it.each([
    ['no at sign', 'alice.example.com', /not a valid email address/],
    ['two at signs', 'alice@@example.com', /not a valid/],
    ['no top-level domain', 'alice@localhost', /not a valid/],
    ['numeric top-level domain', 'alice@example.123', /not a valid/],
    ['IP literal', 'alice@[127.0.0.1]', /not a valid/],
    ['leading dot', '.alice@example.com', /not a valid/],
    ['double dot', 'al..ice@example.com', /not a valid/],
    ['label starting with a hyphen', 'alice@-example.com', /not a valid/],
    ['non-ASCII domain', 'alice@bücher.de', /not a valid/],
    ['quoted local part', '"al ice"@example.com', /single bare address/],
    ['display name', 'Alice <alice@example.com>', /single bare address/],
    ['comma list', 'a@example.com,b@example.com', /single bare address/],
    ['CRLF', 'a@example.com\r\nBcc: e@x.com', /line break/],
    ['LF', 'a@example.com\nX', /line break/],
    ['NUL', 'a@example.com\u0000', /control character/],
    ['U+2028', 'a@example.com\u2028', /line break/],
    ['local part over 64', `${'a'.repeat(65)}@example.com`, /not a valid/],
    ['over 254 characters', `a@${'b'.repeat(250)}.com`, /not a valid/],
    ['empty', '', /not a valid/],
  ])('refuses %s', (_name, raw, reason) => {
    const result = checkEmailAddress(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});

describe('normalizeMailArgs', () => {
  it('lower-cases, makes arrays and deduplicates across to, cc and bcc (first field wins)', () => {
    const result = normalizeMailArgs({
      to: 'Alice@Example.com',
      cc: ['bob@example.com', 'ALICE@example.com', 'bob@EXAMPLE.com'],
      bcc: ['carol@example.com', 'Bob@example.com'],
      subject: '  Quarterly report  ',
      body: 'Body\r\nkept as is',
    });
    expect(result).toEqual({
      ok: true,
      args: {
        to: ['alice@example.com'],
        cc: ['bob@example.com'],
        bcc: ['carol@example.com'],
        subject: 'Quarterly report',
        body: 'Body\r\nkept as is',
      },
      recipients: ['alice@example.com', 'bob@example.com', 'carol@example.com'],
    });
  });

  const base = { to: 'a@example.com', subject: 'Hi', body: 'x' };
  const many = (n: number): string[] => Array.from({ length: n }, (_, i) => `p${i}@example.com`);

  it.each([
    ['not an object', 'send it', /must be an object/],
    ['an unknown argument', { ...base, headers: { 'X-A': '1' } }, /unknown argument "headers"/],
    ['no to', { subject: 'Hi', body: 'x' }, /"to" needs at least one recipient/],
    ['an empty to list', { ...base, to: [] }, /"to" needs at least one recipient/],
    ['a non-string recipient', { ...base, to: [42] }, /"to" must be an address or a list/],
    ['a bad cc address', { ...base, cc: 'nope' }, /"cc": "nope" is not a valid/],
    ['a CRLF in the subject', { ...base, subject: 'Hi\r\nBcc: e@x.com' }, /one line/],
    ['a tab-free control char in the subject', { ...base, subject: 'Hi\u0007' }, /one line/],
    ['a NEL in the subject', { ...base, subject: 'Hi\u0085there' }, /one line/],
    ['an empty subject', { ...base, subject: '   ' }, /must not be empty/],
    ['a long subject', { ...base, subject: 'x'.repeat(256) }, /longer than 255/],
    ['a non-string body', { ...base, body: 5 }, /"body" must be a string/],
    ['a NUL in the body', { ...base, body: 'a\u0000b' }, /NUL/],
    [
      'an oversized body',
      { ...base, body: 'é'.repeat(MAIL_LIMITS.maxBodyBytes / 2 + 1) },
      /larger than 256 KiB/,
    ],
    [
      '51 recipients',
      { ...base, to: many(30), bcc: many(51).slice(30) },
      /too many recipients \(51\)/,
    ],
    ['51 in one field', { ...base, to: many(51) }, /too many recipients in "to"/],
  ])('refuses %s', (_name, args, reason) => {
    const result = normalizeMailArgs(args);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('accepts exactly the recipient limit', () => {
    expect(normalizeMailArgs({ ...base, to: many(50) }).ok).toBe(true);
  });
});
