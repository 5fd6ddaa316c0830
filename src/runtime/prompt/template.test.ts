import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/validation-error.js';
import { templateString } from './template.js';

const issueOf = (run: () => unknown): { path: string; message: string } => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError && error.issues[0]) return error.issues[0];
    throw error;
  }
  throw new Error('expected a ValidationError');
};

describe('templateString: ${name} (Cadre, Gemini CLI)', () => {
  it('fills strings as they are and other values as JSON', () => {
    expect(templateString('${a} and ${b}', { a: 'x', b: { n: 1 } })).toBe('x and {"n":1}');
  });

  it('leaves ADK-style braces alone', () => {
    expect(templateString('{a} ${a}', { a: 'x' })).toBe('{a} x');
  });

  it('a missing value names the placeholder, the field and what was available', () => {
    expect(issueOf(() => templateString('${a} ${b} ${c}', { a: 1 }, 'promptConfig.query'))).toEqual(
      { path: 'promptConfig.query', message: 'missing value for ${b}, ${c}; available: a' },
    );
  });
});

describe('templateString: {name} (ADK state injection)', () => {
  const fill = (text: string, values: Record<string, unknown> = {}): string =>
    templateString(text, values, 'promptConfig.systemPrompt', 'braces');

  it("fills {name}, scoped {user:name} and ADK's doubled braces", () => {
    expect(fill('{topic} / {user:lang} / {{topic}}', { topic: 'tides', 'user:lang': 'fr' })).toBe(
      'tides / fr / tides',
    );
  });

  it('an optional {name?} with no value becomes empty', () => {
    expect(fill('Notes: {notes?}.')).toBe('Notes: .');
    expect(fill('Notes: {notes?}.', { notes: 'n' })).toBe('Notes: n.');
  });

  it('leaves JSON, spaced names and code as written', () => {
    const text = 'Answer {"a": 1} or { x } or {a, b} or function f() { return 1; }';
    expect(fill(text)).toBe(text);
  });

  it('reads ${name} as "$" then {name}, as ADK does', () => {
    expect(fill('costs ${n}', { n: 3 })).toBe('costs $3');
  });

  it('an optional {artifact.name?} is empty, as in ADK with no such artifact', () => {
    expect(fill('See [{artifact.report.txt?}].')).toBe('See [].');
  });

  it('a required {artifact.name} fails: Cadre has no artifact store', () => {
    expect(issueOf(() => fill('See {artifact.report.txt}.'))).toEqual({
      path: 'promptConfig.systemPrompt',
      message:
        'missing value for {artifact.report.txt} (Cadre has no ADK artifacts); available: (none)',
    });
  });

  it('a missing required {name} fails naming it, as ADK fails the run', () => {
    expect(issueOf(() => fill('Review {code} for {prompt}.', { prompt: 'p' }))).toEqual({
      path: 'promptConfig.systemPrompt',
      message: 'missing value for {code}; available: prompt',
    });
  });
});

describe('templateString: none (Claude Code)', () => {
  it('fills nothing and never fails', () => {
    const body = 'cd ${REPO} && echo {x} ${HOME:-/tmp}';
    expect(templateString(body, {}, 'promptConfig.systemPrompt', 'none')).toBe(body);
  });
});
