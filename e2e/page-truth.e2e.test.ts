import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../src/model/scripted-model.js';
import type { ThreadView } from '../src/server/run-service-types.js';
import { runCliCaptured } from '../src/testing/run-cli-captured.js';
import { GREETING, MAIL, SAID } from './support/assistant-script.js';
import { openBrowser, screenshot, signIn, type Browser } from './support/browser.js';
import { startApp, type RunningApp } from './support/start-app.js';

const card = (page: Page) => page.getByRole('article', { name: /Approval needed/ });
const composer = (page: Page) => page.getByLabel('Your message', { exact: true });
const picker = (page: Page) => page.getByLabel('Agent', { exact: true });
const PREVIEW = `Send "${MAIL.subject}" to ${MAIL.to}`;

async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

async function threadIdOf(page: Page): Promise<string> {
  await page.waitForURL(/\/threads\/[^/]+$/);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '');
}

async function api<T>(app: RunningApp, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${app.url}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${app.token}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

describe('web page: the truth about threads and runs (model behaviour is scripted; real server, SQLite, Chromium)', () => {
  let app: RunningApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    browser = await openBrowser();
  });
  afterEach(async () => {
    await browser.close();
  });

  it('a thread keeps its agent: reloading or reopening it shows that agent in the picker and on its replies (scripted greeter)', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await picker(page).selectOption('greeter');
    await send(page, 'Say hello');
    const threadId = await threadIdOf(page);
    await page
      .locator('.message-assistant .message-text', { hasText: GREETING.join('') })
      .waitFor();

    await page.reload();
    await page
      .locator('.message-assistant .message-text', { hasText: GREETING.join('') })
      .waitFor();
    await expect.poll(() => picker(page).inputValue()).toBe('greeter');
    await expect
      .poll(() => page.locator('.message-assistant .message-role').textContent())
      .toBe('greeter');

    // A new thread with the default agent, then the greeter's thread again.
    await page.getByRole('button', { name: 'New thread' }).click();
    await picker(page).selectOption('');
    await page.locator(`a[href="/threads/${threadId}"]`).click();
    await expect.poll(() => picker(page).inputValue()).toBe('greeter');
    // Locked to the thread's agent: another agent takes a new thread.
    expect(await picker(page).isDisabled()).toBe(true);
    await page.getByText('This thread keeps its agent').waitFor();
    await page.getByRole('button', { name: 'New thread' }).click();
    expect(await picker(page).isDisabled()).toBe(false);
  });

  it('the header says who is signed in', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await page.locator('.app-header').getByText('Signed in as ann').waitFor();
  });

  it("another user's thread address says the thread is not found instead of loading forever", async () => {
    const { page } = browser;
    const { threadId } = await api<{ threadId: string }>(app, '/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'Hello' }),
    });
    await signIn(page, app.url, await app.tokenFor('bob'));
    await page.goto(`${app.url}/threads/${threadId}`);
    await page.getByRole('heading', { name: 'Thread not found' }).waitFor();
    await page
      .getByRole('alert')
      .getByText(/belongs to someone else/)
      .waitFor();
    expect(await page.getByText('Loading…').count()).toBe(0);
    expect(await page.getByText(GREETING.join('')).count()).toBe(0);
  });

  it('the recording link is offered only for a recorded run, and a run not recorded logs no console error (scripted)', async () => {
    const { page } = browser;
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, app.url, app.token);
    await send(page, 'Hello, not recorded');
    await page
      .locator('.message-assistant .message-text', { hasText: GREETING.join('') })
      .waitFor();
    await page.getByRole('link', { name: 'Run timeline and audit' }).click();
    await page.getByText(/^Not recorded: tick/).waitFor();
    expect(await page.getByRole('link', { name: /Step through the recording/ }).count()).toBe(0);
    // Opened directly too (a reload): the page asks whether it was recorded and gets no 404.
    await page.reload();
    await page.getByText(/^Not recorded: tick/).waitFor();
    expect(errors).toEqual([]);

    await page.getByRole('button', { name: 'New thread' }).click();
    await page.getByLabel('Record runs').check();
    await send(page, 'Hello, recorded');
    await page
      .locator('.message-assistant .message-text', { hasText: GREETING.join('') })
      .waitFor();
    await page.getByRole('link', { name: 'Run timeline and audit' }).click();
    await page.getByRole('link', { name: 'Step through the recording and fork it' }).waitFor();
    expect(await page.getByText(/^Not recorded/).count()).toBe(0);

    // Exported from the page, the file replays on the command line.
    await page.getByRole('link', { name: 'Step through the recording and fork it' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export trajectory' }).click();
    const download = await downloading;
    const folder = await mkdtemp(join(tmpdir(), 'cadre-export-'));
    try {
      const file = join(folder, download.suggestedFilename());
      await download.saveAs(file);
      expect(file).toMatch(/\.trajectory\.json$/);
      const replay = await runCliCaptured(['replay', file], {
        cwd: folder,
        env: { HOME: join(folder, 'home') },
      });
      expect(replay.code, replay.stderr).toBe(0);
      expect(replay.stdout).toContain(GREETING.join(''));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("a fork's thread says it is a fork and shows the steps it kept, after a reload too (scripted coordinator)", async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await picker(page).selectOption('coordinator');
    await page.getByLabel('Record runs').check();
    await send(page, 'Greet me through the greeter');
    await page.getByText('The greeter has said hello for me.').waitFor();
    await page.getByRole('link', { name: 'Run timeline and audit' }).click();
    await page.getByRole('link', { name: 'Step through the recording and fork it' }).click();
    await page.getByRole('button', { name: /^3\. coordinator: answers$/ }).click();
    await page.getByLabel('Prompt', { exact: true }).fill('Greet me twice');
    await page.getByRole('button', { name: 'Fork from step 3' }).click();
    await threadIdOf(page);
    await page.locator('.message-user', { hasText: 'Greet me twice' }).waitFor();

    for (const pass of ['fresh', 'reloaded']) {
      if (pass === 'reloaded') await page.reload();
      const fork = page.getByRole('complementary', { name: 'Fork' });
      await fork.getByText(/answered afresh from step 3/).waitFor();
      const kept = fork.getByRole('list', { name: 'Kept steps' }).getByRole('listitem');
      expect(await kept.count()).toBe(2);
      expect(await kept.nth(0).textContent()).toContain('coordinator: called task');
      expect(await kept.nth(1).textContent()).toContain('coordinator › greeter');
      expect(await kept.nth(1).textContent()).toContain(GREETING.join(''));
    }
    await screenshot(page, 'truth-01-fork-thread');
    await page.getByRole('link', { name: 'a recorded run' }).click();
    await page.getByRole('heading', { name: 'Recorded run' }).waitFor();
  });

  it("keeps the model's own words before its call, and shows the call's preview once (scripted)", async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await send(page, 'Mail Bob about lunch and explain');
    await card(page).waitFor();
    await threadIdOf(page);
    for (const pass of ['fresh', 'reloaded']) {
      if (pass === 'reloaded') {
        await page.reload();
        await card(page).waitFor();
      }
      const ask = page.locator('.message-assistant', { hasText: 'I need your approval' });
      await ask.getByText(SAID).waitFor();
      await expect.poll(() => page.getByText(PREVIEW, { exact: true }).count()).toBe(1);
      expect(await card(page).locator('pre').textContent()).toBe(PREVIEW);
    }
    await screenshot(page, 'truth-02-words-and-card');
  });

  it('feedback typed on a card survives a reload, and goes with the rejection (scripted)', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await send(page, 'Mail Bob about lunch');
    await card(page).waitFor();
    await threadIdOf(page);
    const feedback = card(page).getByLabel('Feedback for the agent (optional)');
    await feedback.fill('Ask Carol instead');
    await page.reload();
    await card(page).waitFor();
    expect(await feedback.inputValue()).toBe('Ask Carol instead');
    await card(page).getByRole('button', { name: 'Reject' }).click();
    await page
      .getByText('Understood, I did not send it. Your feedback: "Ask Carol instead"')
      .waitFor();
    // Decided: the kept text goes with the card.
    expect(
      await page.evaluate(
        'Object.keys(localStorage).filter((k) => k.startsWith("cadre.feedback.")).length',
      ),
    ).toBe(0);
  });

  it('a cancelled run reads as cancelled, not as a failure (scripted)', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    const release = app.model.holdAnswers();
    try {
      await send(page, 'Hello, to be cancelled');
      const threadId = await threadIdOf(page);
      const view = await api<ThreadView>(app, `/api/threads/${threadId}`);
      const runId = view.messages.find((m) => m.runId)?.runId ?? '';
      await api(app, `/api/runs/${runId}/cancel`, { method: 'POST', body: '{}' });
    } finally {
      release();
    }
    await page.reload();
    await page.locator('.message-assistant .badge-cancelled', { hasText: 'Cancelled' }).waitFor();
    expect(await page.getByText(/The run failed/).count()).toBe(0);
    await page.getByRole('link', { name: 'Run timeline and audit' }).click();
    await page.locator('.run-summary .badge', { hasText: /^cancelled$/ }).waitFor();
  });
});

describe('web page: a scripted model that runs out (scripted list of one turn)', () => {
  let app: RunningApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startApp({
      script: [{ parts: [{ text: 'The one canned answer.' }] }],
      model: 'scripted:demo-turns.json',
    });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await app.close();
  });

  it('says the model is scripted, and shows its running out as a failure, not as a reply', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await send(page, 'Hello');
    await page
      .locator('.message-assistant .message-text', { hasText: 'The one canned answer.' })
      .waitFor();
    await page
      .getByRole('note')
      .getByText(/^Scripted model \(demo-turns\.json\)/)
      .waitFor();
    await send(page, 'And again');
    const failure = page.locator('.message-assistant .run-failure');
    await failure.getByText(/The run failed:/).waitFor();
    expect(await failure.textContent()).toContain('Scripted model has no turn 2');
    await page.reload();
    await page.locator('.message-assistant .run-failure').waitFor();
    expect(
      await page
        .locator('.message-assistant .message-text', { hasText: 'Scripted model has no turn' })
        .count(),
    ).toBe(0);
    await screenshot(page, 'truth-03-script-ran-out');
  });
});

describe('web page: the key-less demo script (examples/scripts/assistant-turns.json, scripted)', () => {
  let app: RunningApp;
  let browser: Browser;
  beforeAll(async () => {
    const file = 'examples/scripts/assistant-turns.json';
    const { turns } = JSON.parse(await readFile(file, 'utf8')) as { turns: ScriptedTurn[] };
    app = await startApp({ script: turns, model: `scripted:${file}` });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser.close();
    await app.close();
  });

  it('the example mail prompt gets a mail card, and the thread says its model is scripted', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await page.getByRole('button', { name: /^Email bob@example.com/ }).click();
    await composer(page).press('Enter');
    await card(page).waitFor();
    expect(await card(page).locator('pre').textContent()).toBe(
      'Send "Lunch on Friday" to bob@example.com',
    );
    await page.getByText("I'll write to Bob for you.").waitFor();
    await page
      .getByRole('note')
      .getByText(/^Scripted model \(examples\/scripts\/assistant-turns\.json\)/)
      .waitFor();
    await screenshot(page, 'truth-04-demo-mail-card');
  });
});
