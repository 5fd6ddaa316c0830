import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectGate } from './project-gate.js';
import { showExactly } from './show-exactly.js';
import { askToTrust } from './trust-prompt.js';
import { refusalLines, trustQuestion } from './trust-report.js';

let root: string;
let project: string;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cadre-gate-'));
  project = join(root, 'project');
  await mkdir(join(project, 'tools'), { recursive: true });
  await mkdir(join(root, 'home/.cadre/tools'), { recursive: true });
  await writeFile(join(project, 'tools/a.tool.mjs'), 'a');
  await writeFile(join(project, 'tools/b.tool.mjs'), 'b');
  await writeFile(join(project, 'tools/c.tool.mjs'), 'c');
  await writeFile(join(root, 'home/.cadre/tools/u.tool.mjs'), 'u');
  await writeFile(join(root, 'elsewhere.yaml'), 'e');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the project gate', () => {
  it('lets through only the content that was trusted: new and changed files are refused', async () => {
    const gate = createProjectGate({
      root: project,
      trusted: {
        'tools/a.tool.mjs': { sha256: sha('a'), trustedAt: '' },
        'tools/b.tool.mjs': { sha256: sha('an older b'), trustedAt: '' },
      },
      ownFolders: [join(root, 'home/.cadre')],
    });
    expect(await gate.allows(join(project, 'tools/a.tool.mjs'), 'tool module')).toBe(true);
    expect(await gate.allows(join(project, 'tools/b.tool.mjs'), 'tool module')).toBe(false);
    expect(await gate.allows(join(project, 'tools/c.tool.mjs'), 'tool module')).toBe(false);
    // The user's own tools, and a policy a person named outside the project, are theirs.
    expect(await gate.allows(join(root, 'home/.cadre/tools/u.tool.mjs'), 'tool module')).toBe(true);
    expect(await gate.allows(join(root, 'elsewhere.yaml'), 'policy')).toBe(true);
    // An agent file that starts commands is gated wherever it lies.
    expect(await gate.allows(join(root, 'elsewhere.yaml'), 'MCP commands')).toBe(false);
    expect(gate.refused().map((e) => [e.key, e.status])).toEqual([
      ['tools/b.tool.mjs', 'changed'],
      ['tools/c.tool.mjs', 'new'],
      [join(root, 'elsewhere.yaml'), 'new'],
    ]);
    expect(gate.why?.(join(project, 'tools/b.tool.mjs'))).toBe('changed since trusted');
  });

  it('one run (--trust-project) lets everything through; a denied folder stays shut even so', async () => {
    const gate = createProjectGate({
      root: project,
      trusted: {},
      oneRun: true,
      denied: [{ folder: join(project, 'tools/'), why: 'inside the workspace' }],
    });
    expect(await gate.allows(join(project, 'tools/a.tool.mjs'), 'tool module')).toBe(false);
    expect(await gate.allows(join(root, 'elsewhere.yaml'), 'MCP commands')).toBe(true);
    expect(refusalLines(gate.refused(), [])).toEqual([
      'not loaded: tools/a.tool.mjs (tool module, inside the workspace)',
    ]);
  });

  it('shows names and commands exactly: control characters are escapes, not terminal commands', async () => {
    expect(showExactly('a\u001b[2Jb\r\u202e')).toBe('a\\x1b[2Jb\\x0d\\u202e');
    const entry = {
      key: 'agents/x\u001b]0;hi\u0007.yaml',
      file: '/p/agents/x.yaml',
      kind: 'MCP commands' as const,
      sha256: sha('x'),
      status: 'new' as const,
      allowed: false,
      detail: ['pwn: sh -c "echo \u001b[31m"'],
    };
    const question = trustQuestion([entry]);
    expect(question).not.toMatch(/\u001b/);
    expect(question).toContain('agents/x\\x1b]0;hi\\x07.yaml (MCP commands, not trusted yet)');
    expect(question).toContain('starts: pwn: sh -c "echo \\x1b[31m"');
    expect(question.endsWith('Trust them? [y/N] ')).toBe(true);
  });

  it('the prompt takes only yes for yes (fake terminal)', async () => {
    const signal = new AbortController().signal;
    const entry = {
      key: 'tools/a.tool.mjs',
      file: '/p/tools/a.tool.mjs',
      kind: 'tool module' as const,
      sha256: sha('a'),
      status: 'new' as const,
      allowed: false,
      detail: [],
    };
    const asked: string[] = [];
    const answer = (text: string) => async (question: string) => {
      asked.push(question);
      return text;
    };
    expect(await askToTrust(answer('y\n'), [entry], signal)).toBe(true);
    expect(await askToTrust(answer('YES'), [entry], signal)).toBe(true);
    expect(await askToTrust(answer(''), [entry], signal)).toBe(false);
    expect(await askToTrust(answer('sure'), [entry], signal)).toBe(false);
    expect(asked[0]).toContain('tools/a.tool.mjs (tool module, not trusted yet)');
  });
});
