import os from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CancelledError,
  ConfigError,
  ToolExecutionError,
  ValidationError,
} from '../../errors/index.js';
import { contextFor } from '../builtin/testing/test-support.js';
import type { ToolContext } from '../types.js';
import { createGmailSendTool, type MailSender } from './gmail-send.js';
import { parseMessage, startSmtpServer, type TestSmtpServer } from './testing/test-support.js';

let smtp: TestSmtpServer;
const ctx = (signal = new AbortController().signal): ToolContext => contextFor(os.tmpdir(), signal);

beforeEach(async () => {
  smtp = await startSmtpServer({ rejectRecipients: ['nobody@example.org'] });
});
afterEach(() => smtp.close());

const toolFor = (env: Record<string, string>) => createGmailSendTool({ env });

describe('gmail_send against a real SMTP server', () => {
  it('delivers to every recipient, with To/Cc headers and no Bcc header', async () => {
    const tool = toolFor({ CADRE_SMTP_URL: smtp.url(), CADRE_MAIL_FROM: 'Agent@Example.com' });
    const result = await tool.execute(
      {
        to: ['Alice@Example.com', 'bob@example.com'],
        cc: 'carol@example.com',
        bcc: ['dave@example.net', 'alice@example.com'],
        subject: 'Quarterly report',
        body: 'Numbers attached.\nSecond line.',
      },
      ctx(),
    );
    expect(result).toMatchObject({
      accepted: ['alice@example.com', 'bob@example.com', 'carol@example.com', 'dave@example.net'],
      rejected: [],
    });
    expect((result as { messageId: string }).messageId).toMatch(/^<.+@.+>$/);

    expect(smtp.messages).toHaveLength(1);
    const delivered = smtp.messages[0]!;
    expect(delivered.user).toBe('cadre@example.com');
    expect(delivered.mailFrom).toBe('agent@example.com');
    expect(delivered.rcptTo.sort()).toEqual([
      'alice@example.com',
      'bob@example.com',
      'carol@example.com',
      'dave@example.net',
    ]);
    const message = parseMessage(delivered.raw);
    expect(message.headers.get('to')).toBe('alice@example.com, bob@example.com');
    expect(message.headers.get('cc')).toBe('carol@example.com');
    expect(message.headers.has('bcc')).toBe(false);
    expect(delivered.raw).not.toContain('dave@example.net');
    expect(message.headers.get('from')).toBe('agent@example.com');
    expect(message.headers.get('subject')).toBe('Quarterly report');
    expect(message.text).toBe('Numbers attached.\nSecond line.');
  });

  it('encodes a non-ASCII subject and body (RFC 2047 / quoted-printable) that decode back', async () => {
    const tool = toolFor({ CADRE_SMTP_URL: smtp.url() });
    const subject = 'Résumé für Zoë — café ✓ 会議';
    const body = 'Grüße aus Zürich ☕\nÀ bientôt.';
    await tool.execute({ to: 'alice@example.com', subject, body }, ctx());
    const delivered = smtp.messages[0]!;
    expect(delivered.mailFrom).toBe('cadre@example.com');
    const rawSubject = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(delivered.raw)?.[1] ?? '';
    expect(rawSubject).toMatch(/=\?UTF-8\?[QB]\?/i);
    expect(rawSubject).not.toContain('Résumé');
    const message = parseMessage(delivered.raw);
    expect(message.headers.get('subject')).toBe(subject);
    expect(message.text).toBe(body);
  });

  it('reports recipients the server rejected while delivering to the rest', async () => {
    const tool = toolFor({ CADRE_SMTP_URL: smtp.url() });
    const result = await tool.execute(
      { to: ['alice@example.com', 'nobody@example.org'], subject: 'Hi', body: 'x' },
      ctx(),
    );
    expect(result).toMatchObject({
      accepted: ['alice@example.com'],
      rejected: ['nobody@example.org'],
    });
    expect(smtp.messages[0]?.rcptTo).toEqual(['alice@example.com']);
  });

  it('fails with a safe message when every recipient is rejected', async () => {
    const tool = toolFor({ CADRE_SMTP_URL: smtp.url() });
    const call = tool.execute({ to: 'nobody@example.org', subject: 'Hi', body: 'x' }, ctx());
    await expect(call).rejects.toThrow(ToolExecutionError);
    await expect(call).rejects.toThrow('The mail server refused 1 recipient (SMTP 550).');
    await call.catch((error: Error) => expect(error.message).not.toContain('nobody'));
    expect(smtp.messages).toHaveLength(0);
  });

  it('authenticates with the URL credentials and surfaces a refusal as an auth error', async () => {
    const tool = toolFor({ CADRE_SMTP_URL: smtp.url('cadre@example.com', 'wrong') });
    const call = tool.execute({ to: 'alice@example.com', subject: 'Hi', body: 'x' }, ctx());
    await expect(call).rejects.toMatchObject({ code: 'auth_error' });
    expect(smtp.messages).toHaveLength(0);
  });

  it.each([
    ['an invalid address', { to: 'alice@@example.com', subject: 'Hi', body: 'x' }],
    ['a CRLF in the subject', { to: 'a@example.com', subject: 'Hi\r\nBcc: evil@x.com', body: 'x' }],
    [
      'a bare LF in the subject',
      { to: 'a@example.com', subject: 'Hi\nBcc: evil@x.com', body: 'x' },
    ],
    ['a CRLF in an address', { to: 'a@example.com\r\nBcc: evil@x.com', subject: 'Hi', body: 'x' }],
    [
      'a header smuggled in cc',
      { to: 'a@example.com', cc: ['b@example.com>\nX: y'], subject: 'Hi', body: 'x' },
    ],
    [
      'an address list in one string',
      { to: 'a@example.com, evil@x.com', subject: 'Hi', body: 'x' },
    ],
    ['a display name', { to: 'Eve <evil@x.com>', subject: 'Hi', body: 'x' }],
  ])('refuses %s before any connection', async (_name, args) => {
    const tool = toolFor({ CADRE_SMTP_URL: smtp.url() });
    await expect(tool.execute(args as never, ctx())).rejects.toThrow(ValidationError);
    expect(smtp.connections).toBe(0);
    expect(smtp.messages).toHaveLength(0);
  });

  it('sends nothing when the call was already cancelled', async () => {
    const tool = toolFor({ CADRE_SMTP_URL: smtp.url() });
    const controller = new AbortController();
    controller.abort();
    await expect(
      tool.execute({ to: 'a@example.com', subject: 'Hi', body: 'x' }, ctx(controller.signal)),
    ).rejects.toThrow(CancelledError);
    expect(smtp.connections).toBe(0);
  });
});

describe('gmail_send cancellation mid-transaction', () => {
  it('stops when the signal aborts while the server is still answering, and nothing is delivered', async () => {
    const stalled = await startSmtpServer({ stallAtRecipient: true });
    try {
      const tool = toolFor({ CADRE_SMTP_URL: stalled.url() });
      const controller = new AbortController();
      const call = tool.execute(
        { to: 'a@example.com', subject: 'Hi', body: 'x' },
        ctx(controller.signal),
      );
      await stalled.stalled;
      expect(stalled.recipientsSeen).toBe(1);
      controller.abort();
      await expect(call).rejects.toThrow(CancelledError);
      expect(stalled.messages).toHaveLength(0);
    } finally {
      await stalled.close();
    }
  });
});

describe('gmail_send configuration', () => {
  const args = { to: 'a@example.com', subject: 'Hi', body: 'x' };

  it('raises a ConfigError naming the variables, at execute time', async () => {
    const tool = toolFor({});
    const call = tool.execute(args, ctx());
    await expect(call).rejects.toThrow(ConfigError);
    await expect(call).rejects.toThrow(/CADRE_SMTP_URL.*GMAIL_USER.*GMAIL_REFRESH_TOKEN/);
  });

  it('never echoes a secret from a bad URL', async () => {
    const tool = toolFor({ CADRE_SMTP_URL: 'http://me:hunter2@127.0.0.1:25' });
    const error = (await tool.execute(args, ctx()).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe('CADRE_SMTP_URL must start with smtp:// or smtps://.');
  });

  it('uses Gmail over OAuth2 when every GMAIL_* variable is set', async () => {
    const seen: unknown[] = [];
    const sent: unknown[] = [];
    const fake: MailSender = {
      sendMail: (message) => {
        sent.push(message);
        return Promise.resolve({ messageId: '<id@x>', accepted: ['a@example.com'], rejected: [] });
      },
      close: () => undefined,
    };
    const tool = createGmailSendTool({
      env: {
        GMAIL_USER: 'Me@gmail.com',
        GMAIL_CLIENT_ID: 'id',
        GMAIL_CLIENT_SECRET: 'secret',
        GMAIL_REFRESH_TOKEN: 'refresh',
      },
      transportFactory: (options) => {
        seen.push(options);
        return fake;
      },
    });
    await expect(tool.execute(args, ctx())).resolves.toEqual({
      messageId: '<id@x>',
      accepted: ['a@example.com'],
      rejected: [],
    });
    expect(seen[0]).toMatchObject({
      host: 'smtp.gmail.com',
      port: 465,
      secure: true,
      auth: {
        type: 'OAuth2',
        user: 'Me@gmail.com',
        clientId: 'id',
        clientSecret: 'secret',
        refreshToken: 'refresh',
      },
    });
    expect(sent[0]).toMatchObject({ from: 'me@gmail.com', to: ['a@example.com'], text: 'x' });
  });
});

describe('gmail_send metadata', () => {
  const tool = toolFor({});
  it('is a side effect that needs approval', () => {
    expect(tool.sideEffect).toBe(true);
    expect(tool.defaultApproval).toBe('require');
  });

  it('previews the subject and recipients in one line, never the body', () => {
    const preview = tool.preview?.({
      to: ['alice@example.com', 'bob@example.com'],
      bcc: 'carol@example.com',
      subject: 'Quarterly report',
      body: 'TOP SECRET BODY',
    });
    expect(preview).toBe('Send "Quarterly report" to alice@example.com (+2 more)');
    expect(tool.preview?.({ to: 'a@example.com', subject: 'One', body: 'b' })).toBe(
      'Send "One" to a@example.com',
    );
  });
});
