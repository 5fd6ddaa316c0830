import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentView, RunView, ThreadView } from '../src/server/run-service-types.js';
import { GREETING } from './support/assistant-script.js';
import { openBrowser, screenshot, signIn, type Browser } from './support/browser.js';
import { contrastFailures, pageColors } from './support/contrast.js';
import { startApp, type RunningApp } from './support/start-app.js';

/** An agent with structured inputs: the page builds its form from `inputConfig`. */
const SUMMARIZER = [
  'name: summarizer',
  'displayName: Summarizer',
  'description: Summarizes a file.',
  'inputConfig:',
  '  inputs:',
  '    path: { type: string, description: File to summarize, required: true }',
  '    lines: { type: integer, description: How many lines at most }',
  '    deep: { type: boolean, description: Read the files it links to }',
  '    tags: { type: "string[]", description: Labels for the summary }',
  'promptConfig:',
  '  systemPrompt: You summarize files.',
  '  query: Summarize ${path}.',
  '',
].join('\n');

const EXAMPLE = 'Book a design review with ana@example.com next Tuesday at 10:00';

let app: RunningApp;
let browser: Browser;
beforeEach(async () => {
  app = await startApp({ agents: { 'summarizer.yaml': SUMMARIZER } });
  browser = await openBrowser();
});
afterEach(async () => {
  await browser.close();
  await app.close();
});

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${app.url}${path}`, {
    headers: { authorization: `Bearer ${app.token}` },
  });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** The id in the page's address, once it shows `/threads/:id`. */
async function threadIdOf(page: Page): Promise<string> {
  await page.waitForURL(/\/threads\/[^/]+$/);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '');
}

/** The runs of a thread, oldest first, with their stored events. */
async function runsOf(threadId: string): Promise<RunView[]> {
  const view = await getJson<ThreadView>(`/api/threads/${threadId}`);
  const ids = [...new Set(view.messages.flatMap((m) => (m.runId ? [m.runId] : [])))];
  return Promise.all(ids.map((id) => getJson<RunView>(`/api/runs/${id}`)));
}

const composer = (page: Page) => page.getByLabel('Your message', { exact: true });

/** The widest of the page and its main column (which scrolls on its own). */
async function widest(page: Page): Promise<number> {
  return Number(
    await page.evaluate(
      'Math.max(document.documentElement.scrollWidth, document.querySelector("main")?.scrollWidth ?? 0)',
    ),
  );
}

describe('web page: reach (model behaviour is scripted; real server, SQLite, Chromium)', () => {
  it('names the default agent, and its example prompts fill the composer without sending', async () => {
    const { agents } = await getJson<{ agents: AgentView[] }>('/api/agents');
    expect(agents[0]).toMatchObject({ name: 'assistant', displayName: 'Assistant', default: true });
    const { page } = browser;
    await signIn(page, app.url, app.token);
    const picker = page.getByLabel('Agent', { exact: true });
    await picker
      .locator('option', { hasText: 'Assistant (default)' })
      .waitFor({ state: 'attached' });
    expect(await picker.locator('option:checked').textContent()).toBe('Assistant (default)');
    const examples = page.getByRole('list', { name: 'Example prompts' });
    await examples.getByRole('button', { name: EXAMPLE }).click();
    expect(await composer(page).inputValue()).toBe(EXAMPLE);
    // Focused, so Enter sends it.
    expect(await page.evaluate('document.activeElement?.id')).toBe('prompt');
    // Filled, not sent: still a new thread, nothing asked of the model.
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.locator('.message').count()).toBe(0);
    await screenshot(page, 'reach-01-examples');
    // Another agent without examples says what it does instead.
    await picker.selectOption('greeter');
    await page.getByRole('heading', { name: 'Start a conversation with greeter' }).waitFor();
    expect(await examples.count()).toBe(0);
  });

  it("builds a form from inputConfig and sends its values as the run's typed inputs", async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await page.getByLabel('Agent', { exact: true }).selectOption('summarizer');
    const form = page.getByRole('form', { name: 'Inputs for Summarizer' });
    await form.waitFor();
    // The form replaces the message box; descriptions are the fields' help.
    expect(await composer(page).count()).toBe(0);
    const path = form.getByLabel('path (required)');
    expect(await path.getAttribute('aria-describedby')).toContain('input-path-help');
    await form.getByText('File to summarize').waitFor();
    await form.getByLabel('lines').waitFor();

    await form.getByRole('button', { name: 'Run' }).click();
    await form.getByRole('alert').filter({ hasText: 'path is required' }).waitFor();
    expect(await path.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/');

    await path.fill('README.md');
    await form.getByLabel('lines').fill('3');
    await form.getByLabel('deep').check();
    await form.getByLabel('tags').fill('docs\napi');
    await screenshot(page, 'reach-02-input-form');
    await form.getByRole('button', { name: 'Run' }).click();
    const threadId = await threadIdOf(page);
    await page
      .locator('.message-assistant .message-text', { hasText: GREETING.join('') })
      .waitFor();
    await page.locator('.message-user', { hasText: 'path: README.md' }).waitFor();
    const [run] = await runsOf(threadId);
    const started = run?.events.find((e) => e.type === 'run_started');
    expect(started?.event.data).toMatchObject({
      agent: 'summarizer',
      inputs: { path: 'README.md', lines: 3, deep: true, tags: ['docs', 'api'] },
    });
  });

  it('steps through a recorded run turn by turn and forks from a step with an edited prompt', async () => {
    const { page } = browser;
    await signIn(page, app.url, app.token);
    await page.getByLabel('Agent', { exact: true }).selectOption('coordinator');
    await page.getByLabel('Record runs').check();
    await composer(page).fill('Greet me through the greeter');
    await composer(page).press('Enter');
    const threadId = await threadIdOf(page);
    await page.getByText('The greeter has said hello for me.').waitFor();
    await page.getByRole('link', { name: 'Run timeline and audit' }).click();
    await page.getByRole('link', { name: 'Step through the recording and fork it' }).click();
    await page.waitForURL(/\/runs\/[^/]+\/trajectory$/);
    await page.getByRole('heading', { name: 'Recorded run' }).waitFor();

    // Step 1: the coordinator calls task; its result is what the greeter answered.
    const status = page.getByRole('status').filter({ hasText: /^Step \d of \d$/ });
    await status.filter({ hasText: 'Step 1 of 3' }).waitFor();
    const step = page.locator('.trajectory-step');
    await step.locator('.call-tool', { hasText: 'task' }).waitFor();
    expect(await step.getByLabel('Arguments of task').textContent()).toContain(
      '"agent": "greeter"',
    );
    expect(await step.locator('.call-output').textContent()).toContain(GREETING.join(''));
    await screenshot(page, 'reach-03-trajectory');
    // A phone-wide window: the view stacks, and nothing is wider than the window.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => widest(page)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1200, height: 800 });

    // Step 2: the greeter, a subagent: its text, and no fork from there.
    await page.getByRole('button', { name: 'Next step →' }).click();
    await status.filter({ hasText: 'Step 2 of 3' }).waitFor();
    await step.getByText('coordinator › greeter').waitFor();
    await step.getByText(GREETING.join('')).waitFor();
    await page.getByText(/This step is a subagent's/).waitFor();

    // Step 3: the coordinator's answer; fork from here with the prompt edited.
    await page.getByRole('button', { name: /^3\. coordinator: answers$/ }).click();
    await status.filter({ hasText: 'Step 3 of 3' }).waitFor();
    await step.getByText('The greeter has said hello for me.').waitFor();
    const prompt = page.getByLabel('Prompt', { exact: true });
    expect(await prompt.inputValue()).toBe('Greet me through the greeter');
    await prompt.fill('Greet me twice');
    await page.getByRole('button', { name: 'Fork from step 3' }).click();

    const forkThread = await threadIdOf(page);
    expect(forkThread).not.toBe(threadId);
    await page.locator('.message-user', { hasText: 'Greet me twice' }).waitFor();
    await page
      .locator('.message-assistant .message-text', {
        hasText: 'The greeter has said hello for me.',
      })
      .waitFor();
    // Steps 1 and 2 came from the recording: one model turn, and the greeter was not asked again.
    const [fork] = await runsOf(forkThread);
    const types = fork?.events.map((e) => e.type) ?? [];
    expect(types.filter((t) => t === 'turn_started')).toHaveLength(1);
    expect(types).not.toContain('subagent_started');
    expect(types).not.toContain('tool_call');
  });

  it('every main view reads well in light and dark: colours change, text keeps its contrast', async () => {
    const { page } = browser;
    const views: Array<{ name: string; open: () => Promise<void> }> = [
      {
        name: 'sign-in',
        open: async () => {
          await page.goto(app.url);
          await page.getByRole('heading', { name: 'Sign in to Cadre' }).waitFor();
        },
      },
      {
        name: 'new-thread',
        open: async () => {
          await signIn(page, app.url, app.token);
          await page.getByRole('list', { name: 'Example prompts' }).waitFor();
        },
      },
      {
        name: 'approval',
        open: async () => {
          await composer(page).fill('Mail Bob about lunch');
          await composer(page).press('Enter');
          await page.getByRole('region', { name: 'Pending approvals' }).waitFor();
        },
      },
      {
        name: 'answer',
        open: async () => {
          await page.getByRole('button', { name: 'New thread' }).click();
          await page.getByLabel('Agent', { exact: true }).selectOption('coordinator');
          await page.getByLabel('Record runs').check();
          await composer(page).fill('Greet me through the greeter');
          await composer(page).press('Enter');
          await page.getByText('The greeter has said hello for me.').waitFor();
        },
      },
      {
        name: 'timeline',
        open: async () => {
          await page.getByRole('link', { name: 'Run timeline and audit' }).click();
          await page.getByRole('heading', { name: 'Run timeline' }).waitFor();
        },
      },
      {
        name: 'trajectory',
        open: async () => {
          await page.getByRole('link', { name: 'Step through the recording and fork it' }).click();
          await page.locator('.trajectory-step .call-output').waitFor();
        },
      },
      {
        name: 'input-form',
        open: async () => {
          await page.getByRole('button', { name: 'New thread' }).click();
          await page.getByLabel('Agent', { exact: true }).selectOption('summarizer');
          const form = page.getByRole('form', { name: 'Inputs for Summarizer' });
          await form.getByRole('button', { name: 'Run' }).click();
          await form.getByRole('alert').first().waitFor();
        },
      },
    ];
    for (const view of views) {
      await view.open();
      const seen: Record<string, { background: string; text: string }> = {};
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        seen[theme] = await pageColors(page);
        const failures = await contrastFailures(page);
        expect(failures, `${view.name} (${theme})`).toEqual([]);
        await page.screenshot({ path: `test-results/e2e/reach-theme-${view.name}-${theme}.png` });
      }
      expect(seen.light?.background, view.name).not.toBe(seen.dark?.background);
      expect(seen.light?.text, view.name).not.toBe(seen.dark?.text);
      await setTheme(page, 'light');
    }
  });
});

/** Switches with the page's own toggle, and waits until the page has taken it. */
async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const current = await page.evaluate('document.documentElement.dataset.theme');
  if (current !== theme)
    await page.getByRole('button', { name: `Switch to ${theme} theme` }).click();
  await page.waitForFunction(`document.documentElement.dataset.theme === '${theme}'`);
}
