import { matchArg, quantifierFor } from './arg-matchers.js';
import { globMatch } from './glob.js';
import type { Principal, PolicyRule, TrustLevel } from './types.js';

/** Name of the virtual argument holding every recipient of a call (to + cc + bcc, attendees). */
export const RECIPIENTS_ARG = 'recipients';

export interface RuleSubject {
  principal: Principal;
  trust: TrustLevel;
  tool: string;
  args: Readonly<Record<string, unknown>>;
  recipients?: readonly string[];
}

/** The first rule that applies to this call (rules are ordered: first match wins). */
export function findRule(
  rules: readonly PolicyRule[],
  subject: RuleSubject,
): PolicyRule | undefined {
  return rules.find((rule) => ruleApplies(rule, subject));
}

function ruleApplies(rule: PolicyRule, subject: RuleSubject): boolean {
  if (!globMatch(rule.tool, subject.tool)) return false;
  if (
    rule.principal !== undefined &&
    rule.principal !== subject.principal.userId &&
    rule.principal !== subject.trust
  ) {
    return false;
  }
  const quantifier = quantifierFor(rule.decision);
  return Object.entries(rule.when ?? {}).every(([name, matcher]) =>
    matchArg(matcher, argument(subject, name), quantifier),
  );
}

function argument(subject: RuleSubject, name: string): unknown {
  if (name === RECIPIENTS_ARG && subject.recipients !== undefined) return subject.recipients;
  return Object.hasOwn(subject.args, name) ? subject.args[name] : undefined;
}
