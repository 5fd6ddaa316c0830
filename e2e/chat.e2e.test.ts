import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GREETING } from './support/assistant-script.js';
import { openBrowser, screenshot, signIn, type Browser } from './support/browser.js';
import { startApp, type RunningApp } from './support/start-app.js';

let app: RunningApp;
let browser: Browser;
beforeEach(async () => {
  app = await startApp();
  browser = await openBrowser();
});
afterEach(async () => {
  await browser.close();
  await app.close();
});

describe('web page: chat (model behaviour is scripted; real server, SQLite, Chromium)', () => {
  it('signs in with a token and shows the scripted answer while it is still streaming', async () => {
    const { page } = browser;
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'Sign in to Cadre' }).waitFor();
    await screenshot(page, '01-sign-in');
    await signIn(page, app.url, app.token);

    const release = app.model.hold();
    const prompt = page.getByLabel('Your message', { exact: true });
    await prompt.fill('Hi there');
    await prompt.press('Enter');
    // The model is stopped after its first chunk: only that chunk can be on the page.
    const live = page.getByTestId('live-text');
    await expect.poll(() => live.textContent(), { timeout: 10_000 }).toBe(GREETING[0]);
    expect(await page.getByRole('button', { name: 'Running…' }).isDisabled()).toBe(true);
    await screenshot(page, '02-streaming');

    release();
    const answer = GREETING.join('');
    await page.locator('.message-assistant .message-text', { hasText: answer }).waitFor();
    await page.waitForURL(/\/threads\/[^/]+$/);
    await page
      .getByRole('navigation', { name: 'Threads' })
      .getByRole('link', { name: /Hi there/ })
      .waitFor();
    // Thoughts stay folded until asked for.
    const thoughts = page.getByText('A greeting; no tool is needed.');
    expect(await thoughts.isVisible()).toBe(false);
    await page.getByText('Thoughts', { exact: true }).click();
    await thoughts.waitFor();
    await screenshot(page, '03-answer');
  });

  it('a reload mid-run re-attaches to the run: "Still running…", then the scripted answer, the prompt shown once', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    const release = app.model.hold();
    const prompt = page.getByLabel('Your message', { exact: true });
    await prompt.fill('Hi, across a reload');
    await prompt.press('Enter');
    // The new thread has its address as soon as the run is queued, so a reload finds it.
    await page.waitForURL(/\/threads\/[^/]+$/);
    const live = page.getByTestId('live-text');
    await expect.poll(() => live.textContent(), { timeout: 10_000 }).toBe(GREETING[0]);
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Still running…' }).waitFor();
    // The stored log is replayed from the start: the text so far is back.
    await expect.poll(() => live.textContent(), { timeout: 10_000 }).toBe(GREETING[0]);
    await screenshot(page, '02b-reattached');
    release();
    await page
      .locator('.message-assistant .message-text', { hasText: GREETING.join('') })
      .waitFor();
    expect(await page.locator('.message-user', { hasText: 'Hi, across a reload' }).count()).toBe(1);
  });

  it('sends the picked agent; the timeline nests its scripted subagent with durations and tokens', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await page.getByLabel('Agent', { exact: true }).selectOption('coordinator');
    await page.getByLabel('Your message', { exact: true }).fill('Greet me through the greeter');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('The greeter has said hello for me.').waitFor();
    await page.locator('.step', { hasText: 'task(' }).getByText('Done').waitFor();

    await page.getByRole('link', { name: 'Run timeline and audit' }).click();
    await page.getByRole('heading', { name: 'Run timeline' }).waitFor();
    const summary = page.locator('.run-summary');
    expect(await summary.textContent()).toContain('coordinator');
    const root = page.locator('.execution').first();
    const child = root.locator('.execution', { hasText: 'greeter' });
    await child.waitFor();
    expect(await child.locator('summary').textContent()).toMatch(/depth 1 · .+ · \d+ tokens/);
    expect(await root.locator('summary').first().textContent()).toMatch(/coordinator/);
    await page.getByText(/Audit chain verified/).waitFor();
    await screenshot(page, '07-timeline');
  });

  it('keeps the token and the chosen theme across reloads, and signs out on request', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    const theme = () => page.locator('html').getAttribute('data-theme');
    expect(await theme()).toBe('light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await theme()).toBe('dark');
    await page.reload();
    await page.getByRole('button', { name: 'New thread' }).waitFor();
    expect(await theme()).toBe('dark');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API token').waitFor();
    await page.getByLabel('API token').fill('not-a-token');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('That token was not accepted.').waitFor();
  });
});
