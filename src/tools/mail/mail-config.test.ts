import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors/index.js';
import { resolveMailConfig } from './mail-config.js';

const GMAIL = {
  GMAIL_USER: 'me@gmail.com',
  GMAIL_CLIENT_ID: 'id',
  GMAIL_CLIENT_SECRET: 'cs',
  GMAIL_REFRESH_TOKEN: 'rt',
};

describe('resolveMailConfig', () => {
  it.each([
    [
      'an SMTP URL, sender from its user',
      { CADRE_SMTP_URL: 'smtp://bot%40example.com:pw@127.0.0.1:2525' },
      { kind: 'smtp', from: 'bot@example.com' },
    ],
    [
      'smtps with an explicit sender',
      { CADRE_SMTP_URL: 'smtps://user:pw@mail.example.com', CADRE_MAIL_FROM: 'Ops@Example.com' },
      { kind: 'smtp', from: 'ops@example.com' },
    ],
    ['Gmail', GMAIL, { kind: 'gmail', from: 'me@gmail.com' }],
    [
      'SMTP preferred over Gmail',
      { ...GMAIL, CADRE_SMTP_URL: 'smtp://a%40b.com:pw@127.0.0.1:25' },
      { kind: 'smtp', from: 'a@b.com' },
    ],
  ])('resolves %s', (_name, env, expected) => {
    expect(resolveMailConfig(env)).toMatchObject(expected);
  });

  it('hands the URL to nodemailer with bounded timeouts', () => {
    const config = resolveMailConfig({ CADRE_SMTP_URL: 'smtp://a%40b.com:pw@127.0.0.1:25' });
    expect(config.transport).toMatchObject({
      url: 'smtp://a%40b.com:pw@127.0.0.1:25',
      connectionTimeout: 10_000,
      socketTimeout: 30_000,
    });
  });

  it.each([
    [
      'nothing set',
      {},
      /set CADRE_SMTP_URL .* or GMAIL_USER, GMAIL_CLIENT_ID, GMAIL_CLIENT_SECRET, GMAIL_REFRESH_TOKEN/,
    ],
    [
      'Gmail half set',
      { GMAIL_USER: 'me@gmail.com', GMAIL_CLIENT_ID: 'id' },
      /also set GMAIL_CLIENT_SECRET, GMAIL_REFRESH_TOKEN/,
    ],
    [
      'an unparsable URL',
      { CADRE_SMTP_URL: 'not a url pw=hunter2' },
      /CADRE_SMTP_URL is not a valid URL/,
    ],
    [
      'the wrong scheme',
      { CADRE_SMTP_URL: 'https://u:hunter2@x.com' },
      /must start with smtp:\/\//,
    ],
    [
      'a user that is no address',
      { CADRE_SMTP_URL: 'smtp://apikey:hunter2@x.com' },
      /set CADRE_MAIL_FROM/,
    ],
    [
      'a bad sender',
      { CADRE_SMTP_URL: 'smtp://a%40b.com:p@x.com', CADRE_MAIL_FROM: 'x\r\ny' },
      /CADRE_MAIL_FROM is not a valid/,
    ],
  ])('refuses %s with a ConfigError that names variables, not values', (_name, env, message) => {
    let error: unknown;
    try {
      resolveMailConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('hunter2');
  });
});
