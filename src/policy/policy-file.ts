import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { ConfigError, ValidationError } from '../errors/index.js';
import { normalizeText, parseYamlText } from '../definition/data-file.js';
import { errorAt, resolveIssues, type PendingIssue } from '../definition/issues.js';
import { requireYaml } from '../definition/lazy-modules.js';
import { fromZodIssues } from '../definition/zod-issues.js';
import { compileSafePattern } from '../util/safe-regex.js';
import { globMatch } from './glob.js';
import { TRUST_LEVELS, type PolicyRule, type TrustLevel } from './types.js';

/** A policy file: an optional default trust preset and ordered rules (first match wins). */
export interface PolicyFile {
  trust?: TrustLevel;
  rules: PolicyRule[];
}

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const matcher = z.union(
  [
    z.string().min(1),
    z.strictObject({ equals: scalar }),
    z.strictObject({ matches: z.string().min(1) }),
    z.strictObject({ max: z.number() }),
    z.strictObject({ min: z.number() }),
    z.strictObject({ commands: z.array(z.string().min(1)).min(1) }),
  ],
  {
    error:
      'expected a glob string, or one of {equals: …}, {matches: regex}, {max: n}, {min: n}, {commands: [shell patterns]}',
  },
);
const rule = z.strictObject({
  tool: z.string().min(1),
  when: z.record(z.string(), matcher).optional(),
  principal: z.string().min(1).optional(),
  decision: z.enum(['allow', 'require_approval', 'deny']),
  reason: z.string().min(1),
});
const schema = z.strictObject({
  trust: z.enum(TRUST_LEVELS as [TrustLevel, ...TrustLevel[]]).optional(),
  // Optional rather than defaulted: the did-you-mean lookup sees through optional only.
  rules: z.array(rule).optional(),
});

/**
 * Parses a YAML policy file. Every problem is reported at once with its line
 * and column (`policy.yaml:7:15 rules.1.decision: …`) as a ValidationError.
 */
export function parsePolicyFile(text: string, file = 'policy.yaml'): PolicyFile {
  const parsed = parseYamlText(requireYaml(), normalizeText(text));
  const fail = (issues: PendingIssue[]): never => {
    throw new ValidationError(resolveIssues(issues, parsed.mapper, file));
  };
  if (parsed.issues.length > 0) return fail(parsed.issues);
  const result = schema.safeParse(parsed.data ?? {});
  if (!result.success) return fail(fromZodIssues(result.error.issues, [], schema));
  const policy: PolicyFile = {
    ...(result.data.trust === undefined ? {} : { trust: result.data.trust }),
    rules: result.data.rules ?? [],
  };
  const regexIssues = policy.rules.flatMap((r, index) => [
    ...badPatterns(r, index),
    ...textMatchOnShell(r, index),
  ]);
  if (regexIssues.length > 0) return fail(regexIssues);
  return policy;
}

/** Reads and parses a policy file; a missing file is a configuration error. */
export async function loadPolicyFile(file: string, signal?: AbortSignal): Promise<PolicyFile> {
  let text: string;
  try {
    text = await readFile(file, { encoding: 'utf8', signal });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ConfigError(`Policy file not found: ${file}`);
    }
    throw error;
  }
  return parsePolicyFile(text, file);
}

/**
 * A glob or regex cannot vet a shell command: `git status*` also matches
 * `git status; rm -rf ~`. An allow rule on the shell's command must use
 * `commands`, which reads the command the way the shell will.
 */
function textMatchOnShell(r: PolicyRule, index: number): PendingIssue[] {
  if (r.decision !== 'allow' || !globMatch(r.tool, 'shell')) return [];
  const matcher = r.when?.command;
  if (matcher === undefined || (typeof matcher === 'object' && !('matches' in matcher))) return [];
  return [
    errorAt(
      ['rules', index, 'when', 'command'],
      'a glob or regex cannot vet a shell command ("git status*" also matches "git status; rm -rf ~"); use {commands: ["git status:*"]}',
    ),
  ];
}

// Patterns are compiled once here, by the engine that will run them, so a broken or
// unsupported one (a backreference, lookaround) is a load error, not a silent non-match.
function badPatterns(r: PolicyRule, index: number): PendingIssue[] {
  return Object.entries(r.when ?? {}).flatMap(([name, m]) => {
    if (typeof m !== 'object' || !('matches' in m)) return [];
    const compiled = compileSafePattern(m.matches, 'u');
    if (compiled.ok) return [];
    return [
      errorAt(
        ['rules', index, 'when', name, 'matches'],
        `invalid regular expression: ${compiled.reason}`,
      ),
    ];
  });
}
