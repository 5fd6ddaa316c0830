import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxApi } from '../api/inbox-api.js';
import type { ApprovalView } from '../api/wire-types.js';
import type { Inbox } from '../state/use-inbox.js';
import { InboxView } from './inbox-view.js';

const approval = (over: Partial<ApprovalView>): ApprovalView => ({
  approvalId: 'ap1',
  runId: 'run1',
  threadId: 'th1',
  tool: 'gmail_send',
  preview: 'Send "Note" to bob@example.com',
  reason: 'gmail_send changes the world outside this conversation.',
  batchId: 'b1',
  createdAt: new Date(0).toISOString(),
  decisions: ['reject', 'approve_once'],
  ...over,
});

const page = (approvals: ApprovalView[]): string => {
  const inbox: Inbox = {
    approvals,
    byThread: new Map(),
    more: false,
    loaded: true,
    refresh() {},
  };
  return renderToStaticMarkup(
    createElement(InboxView, {
      api: {} as InboxApi,
      inbox,
      navigate: () => {},
      onDecided: () => {},
    }),
  );
};

// The card keeps typed feedback in localStorage; the test renders outside a browser.
const hadWindow = 'window' in globalThis;
beforeAll(() => {
  if (!hadWindow)
    Object.assign(globalThis, {
      window: { localStorage: { getItem: () => null, setItem() {}, removeItem() {} } },
    });
});
afterAll(() => {
  if (!hadWindow) Reflect.deleteProperty(globalThis, 'window');
});

describe('the inbox names who asks (server-rendered markup)', () => {
  it("shows a 3-level tree's path on the row, escaped, and none for the run's own call", () => {
    const html = page([
      approval({ path: ['office', 'team', 'mail\u202eer', 'gmail_send'] }),
      approval({ approvalId: 'ap2', tool: 'write_file', preview: 'Write 2 bytes to a.txt' }),
    ]);
    expect(html).toContain(
      '<code class="inbox-path">office › team › mail\\u202eer › gmail_send</code>',
    );
    expect(html).not.toContain('\u202e');
    expect(html.match(/class="inbox-path"/g)).toHaveLength(1);
  });
});
