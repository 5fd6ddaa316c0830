import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ValidationError } from '../errors/index.js';
import { decide } from './decide.js';
import { normalizeCall } from './normalize-call.js';
import { loadPolicyFile, parsePolicyFile } from './policy-file.js';

const GOOD = `# Company policy
trust: delegated
rules:
  - tool: "gmail_*"
    when:
      recipients: "*@rival.com"
    decision: deny
    reason: Never mail the competition.
  - tool: gmail_send
    when:
      recipients: "*@example.com"
      subject: { matches: "^\\\\[internal\\\\]" }
    decision: allow
    reason: Internal notes go out without asking.
  - tool: calendar_event_create
    principal: autonomous
    when:
      attendees: { min: 5 }
    decision: require_approval
    reason: Large meetings are reviewed.
  - tool: write_file
    when:
      path: { equals: .env }
    decision: deny
    reason: No secrets.
`;

function issuesOf(text: string): ValidationError {
  try {
    parsePolicyFile(text, 'policy.yaml');
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('parsePolicyFile', () => {
  it('reads trust and ordered rules with every matcher form', () => {
    const policy = parsePolicyFile(GOOD);
    expect(policy.trust).toBe('delegated');
    expect(policy.rules).toHaveLength(4);
    expect(policy.rules[1]).toEqual({
      tool: 'gmail_send',
      when: { recipients: '*@example.com', subject: { matches: '^\\[internal\\]' } },
      decision: 'allow',
      reason: 'Internal notes go out without asking.',
    });
    expect(policy.rules[2]?.when).toEqual({ attendees: { min: 5 } });
    expect(policy.rules[3]?.when).toEqual({ path: { equals: '.env' } });
  });

  it('drives decide() as written', () => {
    const { rules } = parsePolicyFile(GOOD);
    const mail = (to: string[], subject: string) =>
      normalizeCall('gmail_send', { to, subject, body: 'b' });
    const gmail = { name: 'gmail_send', sideEffect: true };
    const user = { userId: 'u' };
    expect(decide(user, gmail, mail(['a@example.com'], '[internal] hi'), [], rules)).toEqual({
      mode: 'allow',
    });
    expect(
      decide(user, gmail, mail(['a@example.com', 'b@rival.com'], '[internal] hi'), [], rules),
    ).toEqual({
      mode: 'deny',
      reason: 'Never mail the competition.',
    });
    expect(decide(user, gmail, mail(['a@example.com'], 'hi'), [], rules).mode).toBe(
      'require_approval',
    );
  });

  it('accepts an empty file as no rules', () => {
    expect(parsePolicyFile('')).toEqual({ rules: [] });
    expect(parsePolicyFile('# nothing yet\n')).toEqual({ rules: [] });
  });

  it('reports every problem with file, line and column', () => {
    const error = issuesOf(
      [
        'trust: relaxed', // 1
        'rules:', // 2
        '  - tool: gmail_send', // 3
        '    decision: maybe', // 4
        '    reason: Because.', // 5
        '  - tool: calendar_*', // 6
        '    decison: deny', // 7
        '    reason: Typo above.', // 8
        '  - tool: "*"', // 9
        '    when:', // 10
        '      subject: { matches: "([a-z" }', // 11
        '    decision: deny', // 12
        '    reason: Bad regex.', // 13
        '  - tool: "*"', // 14
        '    when: { to: [1, 2] }', // 15
        '    decision: deny', // 16
        '    reason: Bad matcher.', // 17
      ].join('\n'),
    );
    const found = error.issues.map((i) => [i.line, i.path, i.message]);
    expect(found).toEqual(
      expect.arrayContaining([
        [1, 'trust', expect.stringMatching(/supervised.*delegated.*autonomous/)],
        [4, 'rules.0.decision', expect.stringMatching(/allow.*require_approval.*deny/)],
        [7, 'rules.1.decison', expect.stringMatching(/unknown field "decison".*decision/)],
        [15, 'rules.3.when.to', expect.stringMatching(/expected a glob string/)],
      ]),
    );
    expect(error.message).toMatch(/^policy\.yaml:1:\d+ trust: /m);
    expect(error.message).toMatch(/^policy\.yaml:7:\d+ rules\.1\.decison: unknown field/m);
    // The regex is checked only once the shape is right; check it on its own.
    const regex = issuesOf(
      'rules:\n  - tool: "*"\n    when:\n      subject: { matches: "([a-z" }\n    decision: deny\n    reason: x\n',
    );
    expect(regex.issues).toEqual([
      expect.objectContaining({
        line: 4,
        path: 'rules.0.when.subject.matches',
        message: expect.stringMatching(/invalid regular expression/),
      }),
    ]);
  });

  it('refuses at load a pattern the linear-time engine cannot run (lookahead), naming the construct', () => {
    const error = issuesOf(
      'rules:\n  - tool: "*"\n    when:\n      to: { matches: "^(?!admin)" }\n    decision: deny\n    reason: x\n',
    );
    expect(error.issues).toEqual([
      expect.objectContaining({
        line: 4,
        path: 'rules.0.when.to.matches',
        message: expect.stringMatching(/invalid regular expression: .*lookahead/),
      }),
    ]);
  });

  it('reports YAML syntax errors with their line', () => {
    const error = issuesOf('rules:\n  - tool: gmail_send\n    reason: "unterminated\n');
    expect(error.issues[0]?.line).toBeGreaterThanOrEqual(3);
    expect(error.issues[0]?.message).toMatch(/invalid YAML/);
  });

  it('requires tool, decision and reason on every rule', () => {
    const error = issuesOf('rules:\n  - when: { to: "*" }\n');
    expect(error.issues.map((i) => i.path).sort()).toEqual([
      'rules.0.decision',
      'rules.0.reason',
      'rules.0.tool',
    ]);
    expect(error.issues.every((i) => i.line === 2)).toBe(true);
  });
});

describe('loadPolicyFile', () => {
  it('reads a file and names it in errors; a missing file is a ConfigError', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cadre-policy-'));
    try {
      const file = path.join(dir, 'policy.yaml');
      await writeFile(file, GOOD);
      expect((await loadPolicyFile(file)).rules).toHaveLength(4);
      await writeFile(file, 'rules:\n  - tool: x\n    decision: nope\n    reason: r\n');
      await expect(loadPolicyFile(file)).rejects.toThrow(`${file}:3:`);
      await expect(loadPolicyFile(path.join(dir, 'missing.yaml'))).rejects.toThrow(ConfigError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
