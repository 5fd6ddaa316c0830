import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../src/model/scripted-model.js';
import type { ModelRequest, Part } from '../src/model/types.js';
import { MAIL } from './support/assistant-script.js';
import { openBrowser, screenshot, signIn, type Browser } from './support/browser.js';
import { contrastFailures } from './support/contrast.js';
import { startApp, type RunningApp } from './support/start-app.js';

/*
 * A delegator hands a mail to its `postman` subagent, whose gmail_send waits
 * for approval: the agent tree shows both executions and their states, live
 * in the thread, after a reload, and on the run's page. The model is scripted.
 */

const AGENTS = {
  'delegator.yaml': [
    'name: delegator',
    'description: Hands mail to the postman.',
    'promptConfig:',
    '  systemPrompt: Ask the postman (task tool) to send mail, then report.',
    'toolConfig:',
    '  tools: [task]',
    '',
  ].join('\n'),
  'postman.yaml': [
    'name: postman',
    'description: Sends mail.',
    'promptConfig:',
    '  systemPrompt: Send the mail you are asked to send.',
    'toolConfig:',
    '  tools: [gmail_send]',
    '',
  ].join('\n'),
};

const say = (text: string): ScriptedTurn => ({
  parts: [{ text }],
  usage: { inputTokens: 50, outputTokens: 10 },
});

/** The delegator calls task(postman); the postman says a word and calls gmail_send; each reports its result. */
function script(request: ModelRequest): ScriptedTurn {
  const answered = request.messages
    .at(-1)
    ?.parts.find((p): p is Part & { kind: 'function_response' } => p.kind === 'function_response');
  const delegates = request.tools.some((t) => t.name === 'task');
  if (answered) return say(delegates ? 'The postman sent your mail.' : 'Mail sent.');
  if (delegates)
    return {
      parts: [
        {
          functionCall: { name: 'task', args: { agent: 'postman', query: 'Mail Bob about lunch' } },
        },
      ],
      usage: { inputTokens: 60, outputTokens: 20 },
    };
  return {
    // Two text chunks before the call: a held model stops between them, the postman mid-turn.
    parts: [
      { text: 'Mailing ' },
      { text: 'Bob now.' },
      { functionCall: { name: 'gmail_send', args: MAIL } },
    ],
    usage: { inputTokens: 80, outputTokens: 25 },
  };
}

const node = (scope: Page | Locator, agent: string) =>
  scope.locator(`.run-node[data-agent="${agent}"]`).first();

/** Every text of the page keeps its contrast, light and dark (the page follows the system's). */
async function expectReadable(page: Page, view: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await contrastFailures(page), `${view} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function expectStates(scope: Page | Locator, states: Record<string, string>): Promise<void> {
  for (const [agent, state] of Object.entries(states))
    await expect
      .poll(() => node(scope, agent).getAttribute('data-state'), { timeout: 10_000 })
      .toBe(state);
}

describe('the agent tree of a run (scripted delegator and subagent; real server, SQLite, Chromium)', () => {
  let app: RunningApp;
  let browser: Browser;
  /** Lets a held model go on, so a failed test leaves no run waiting. */
  let release = (): void => undefined;
  beforeAll(async () => {
    app = await startApp({ agents: AGENTS, script });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    browser = await openBrowser();
  });
  afterEach(async () => {
    release();
    await browser.close();
  });

  it('shows the delegator and its subagent running, then waiting for approval live, after a reload and on the run page, then both completed', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await page.getByLabel('Agent', { exact: true }).selectOption('delegator');
    await page.getByLabel('Your message', { exact: true }).fill('Have the postman mail Bob');
    release = app.model.hold();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/threads\/[^/]+$/);
    const threadUrl = page.url();

    // Live in the thread: the postman waits, marked, with a link to its approval card.
    const tree = page.getByRole('region', { name: 'Agent tree of the run' });
    await tree.waitFor();
    // Live, mid-turn: both at work.
    await expectStates(tree, { delegator: 'running', postman: 'running' });
    release();
    await expectStates(tree, { delegator: 'running', postman: 'waiting' });
    expect(await node(tree, 'postman').locator('.run-node-figures').textContent()).toBe(
      '1 turn · 1 tool call',
    );
    const decide = node(tree, 'postman').getByRole('link', { name: 'Decide the approval' });
    const href = await decide.getAttribute('href');
    expect(href).toMatch(/^#approval-.+/);
    expect(await page.locator(`article${href ?? ''}`).count()).toBe(1);

    // After a reload: the same tree, from the stored events.
    await page.reload();
    await tree.waitFor();
    await expectStates(tree, { delegator: 'running', postman: 'waiting' });
    await page.getByRole('article', { name: /Approval needed/ }).waitFor();
    await expectReadable(page, 'thread with the tree');
    await screenshot(page, 'run-tree-waiting', { readme: 'run-tree-thread' });

    // The run's page: the tree, and a link back to the card in the thread.
    await page.getByRole('link', { name: 'Run timeline and audit' }).first().click();
    await page.waitForURL(/\/runs\/[^/]+$/);
    const runUrl = page.url();
    const runTree = page.getByRole('list', { name: 'Agent tree' });
    await expectStates(runTree, { delegator: 'running', postman: 'waiting' });
    await expectReadable(page, 'run page with the tree');
    // A second tab stays on the run's page: its tree follows the run on its own.
    const watcher = await browser.context.newPage();
    await watcher.goto(runUrl);
    const watched = watcher.getByRole('list', { name: 'Agent tree' });
    await expectStates(watched, { delegator: 'running', postman: 'waiting' });
    await node(runTree, 'postman').getByRole('link', { name: 'Decide the approval' }).click();
    await page.waitForURL(
      (url) => url.href.startsWith(threadUrl) && url.hash.startsWith('#approval-'),
    );
    const card = page.getByRole('article', { name: /Approval needed/ });
    await card.waitFor();

    await card.getByRole('button', { name: 'Approve once' }).click();
    await page.getByText('The postman sent your mail.').waitFor();
    await expectStates(watched, { delegator: 'completed', postman: 'completed' });
    await watcher.close();
    await page.goto(runUrl);
    await expectStates(runTree, { delegator: 'completed', postman: 'completed' });
    await screenshot(page, 'run-tree-done', { readme: 'run-tree' });

    // 390 px wide: the tree wraps inside the page, no sideways scroll.
    await page.setViewportSize({ width: 390, height: 800 });
    await expectStates(runTree, { delegator: 'completed', postman: 'completed' });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(page, 'run-tree-narrow');
  });
});
