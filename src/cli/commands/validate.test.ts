import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../testing/run-cli-captured.js';
import { createCalendarEventTool } from '../../tools/calendar/calendar-event-create.js';
import { createGmailSendTool } from '../../tools/mail/gmail-send.js';
import { SERVER_TOOL_NAMES } from '../../tools/server-tool-names.js';

const MAILER = [
  'name: mailer',
  'description: Sends mail and books meetings.',
  'promptConfig: { systemPrompt: You send mail. }',
  'toolConfig: { tools: [gmail_send, calendar_event_create, read_file] }',
].join('\n');

describe('cadre validate agrees with cadre serve', () => {
  it('accepts the mail and calendar tools the server runs, and says where they run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-validate-server-'));
    await mkdir(join(dir, 'agents'));
    await writeFile(join(dir, 'agents', 'mailer.yaml'), MAILER);
    for (const target of ['agents/mailer.yaml', 'agents']) {
      const run = await runCliCaptured(['validate', target], { cwd: dir, env: { HOME: dir } });
      expect(run.stdout + run.stderr).not.toMatch(/unknown tool|not a known tool/i);
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain(
        'note agents/mailer.yaml: gmail_send, calendar_event_create run under `cadre serve`',
      );
    }
  });

  it('still refuses a tool nobody has', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cadre-validate-server-'));
    await writeFile(join(dir, 'x.yaml'), MAILER.replace('read_file', 'gmail_sned'));
    const run = await runCliCaptured(['validate', 'x.yaml'], { cwd: dir, env: { HOME: dir } });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('gmail_sned');
  });

  it('names the tools the server really builds', () => {
    expect([
      createGmailSendTool({ env: {} }).name,
      createCalendarEventTool({ env: {} }).name,
    ]).toEqual([...SERVER_TOOL_NAMES]);
  });
});
