import type { Page } from 'playwright-core';

/** A piece of text whose contrast with what is behind it is below WCAG AA. */
export interface ContrastFailure {
  text: string;
  color: string;
  background: string;
  ratio: number;
  needed: number;
}

/**
 * Runs in the page (plain JS: this project's type-check has no DOM). Every
 * visible text, and every placeholder shown, is checked against the
 * background it is drawn on: 4.5:1, or 3:1 for large text. Disabled
 * controls and faded (opacity) parts are left out, as WCAG does.
 */
const CHECK = `(() => {
  const parse = (value) => {
    const n = (value.match(/[\\d.]+/g) || []).map(Number);
    return [n[0] || 0, n[1] || 0, n[2] || 0, value.startsWith('rgba') ? (n[3] ?? 1) : 1];
  };
  const over = (top, below) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1);
  };
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (c) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const backgroundOf = (element) => {
    const layers = [];
    for (let el = element; el; el = el.parentElement) {
      const bg = parse(getComputedStyle(el).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let result = [255, 255, 255, 1];
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  };
  const faded = (element) => {
    for (let el = element; el; el = el.parentElement) {
      if (Number(getComputedStyle(el).opacity) < 1 || el.matches(':disabled')) return true;
    }
    return false;
  };
  const visible = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1 && getComputedStyle(element).visibility === 'visible';
  };
  const failures = [];
  const check = (element, text, color) => {
    const style = getComputedStyle(element);
    const size = parseFloat(style.fontSize);
    const needed = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700) ? 3 : 4.5;
    const background = backgroundOf(element);
    const value = ratio(over(color, background), background);
    if (value < needed)
      failures.push({
        text: text.slice(0, 60),
        color: 'rgb(' + color.slice(0, 3).join(',') + ')',
        background: 'rgb(' + background.slice(0, 3).map(Math.round).join(',') + ')',
        ratio: Math.round(value * 100) / 100,
        needed,
      });
  };
  let checked = 0;
  for (const element of document.querySelectorAll('body *')) {
    if (element.closest('option, script, style, .visually-hidden') || !visible(element)) continue;
    if (faded(element)) continue;
    const own = [...element.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent || '')
      .join('')
      .trim();
    if (own) {
      checked++;
      check(element, own, parse(getComputedStyle(element).color));
    }
    if ((element.tagName === 'INPUT' || element.tagName === 'TEXTAREA') && element.placeholder && !element.value) {
      checked++;
      check(element, '[placeholder] ' + element.placeholder, parse(getComputedStyle(element, '::placeholder').color));
    }
  }
  return { checked, failures };
})()`;

/** The texts below AA contrast; throws when there was no text to check (a blank page proves nothing). */
export async function contrastFailures(page: Page): Promise<ContrastFailure[]> {
  const { checked, failures } = (await page.evaluate(CHECK)) as {
    checked: number;
    failures: ContrastFailure[];
  };
  if (checked < 5) throw new Error(`Only ${checked} texts on the page to check.`);
  return failures;
}

/** The page's background and text colours as the browser computes them. */
export async function pageColors(page: Page): Promise<{ background: string; text: string }> {
  return (await page.evaluate(
    '({ background: getComputedStyle(document.body).backgroundColor, text: getComputedStyle(document.body).color })',
  )) as { background: string; text: string };
}
