import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalView } from '../api/wire-types.js';
import { ApprovalCard } from './approval-card.js';
import { ToolStepItem } from './tool-step-item.js';

const approval = (over: Partial<ApprovalView>): ApprovalView => ({
  approvalId: 'ap1',
  runId: 'run1',
  threadId: 'th1',
  tool: 'write_file',
  preview: 'Write 2 bytes to a.txt',
  reason: 'write_file changes the world outside this conversation.',
  batchId: 'b1',
  createdAt: new Date(0).toISOString(),
  decisions: ['reject', 'approve_once'],
  ...over,
});

const card = (view: ApprovalView): string =>
  renderToStaticMarkup(
    createElement(ApprovalCard, {
      approval: view,
      busy: false,
      disabled: false,
      onDecide: () => {},
    }),
  );

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

describe('the approval card shows what will run, escaped (server-rendered markup)', () => {
  it('shows a bidi override, a carriage return and an erase-line escape as text, never applied', () => {
    // A preview as an old or foreign server could send it: raw, not yet made visible.
    const html = card(
      approval({
        preview: 'Write 2 bytes to notes\u202etxt.sh\r\x1b[2K',
        path: ['desk', 'wri\u2066ter', 'write_file'],
        reason: 'because\u2028of policy',
      }),
    );
    expect(html).toContain('Write 2 bytes to notes\\u202etxt.sh\\r\\x1b[2K');
    expect(html).toContain('desk › wri\\u2066ter › write_file');
    expect(html).toContain('because\\u2028of policy');
    expect(html).not.toMatch(/[\u202e\u2066\u2028\r\x1b]/);
  });

  it('leaves a preview the server already made visible as it is (no double escaping)', () => {
    const html = card(approval({ preview: "Run: printf 'a\\\\nb' \\r" }));
    expect(html).toContain('Run: printf &#x27;a\\\\nb&#x27; \\r');
  });

  it('escapes a tool step’s summary and preview the same way', () => {
    const html = renderToStaticMarkup(
      createElement(ToolStepItem, {
        step: {
          key: 'c1',
          tool: 'shell',
          summary: 'shell(command: "touch X #\r\x1b[2KAllow")',
          preview: 'Run: \u202eok',
          state: 'done',
          depth: 0,
        },
      }),
    );
    expect(html).toContain('touch X #\\r\\x1b[2KAllow');
    expect(html).toContain('Run: \\u202eok');
    expect(html).not.toMatch(/[\u202e\r\x1b]/);
  });
});
