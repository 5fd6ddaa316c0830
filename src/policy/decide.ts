import { grantCoverage } from './grants.js';
import { findRule } from './rules.js';
import type {
  DecideOptions,
  Grant,
  NormalizedCall,
  PolicyDecision,
  PolicyRule,
  PolicyTool,
  Principal,
} from './types.js';

const ALLOW: PolicyDecision = { mode: 'allow' };
const deny = (reason: string): PolicyDecision => ({ mode: 'deny', reason });
const ask = (reason: string): PolicyDecision => ({ mode: 'require_approval', reason });

/**
 * The policy engine: pure, no I/O, same answer for the same inputs. Order:
 * refused arguments and the side-effect switch first (nothing overrides
 * them), then the first matching rule (a deny there beats grants and trust),
 * then the principal's trust preset, then grants and `defaultApproval`.
 */
export function decide(
  principal: Principal,
  tool: PolicyTool,
  call: NormalizedCall,
  grants: readonly Grant[],
  rules: readonly PolicyRule[] = [],
  options: DecideOptions = {},
): PolicyDecision {
  const decision = decideByPolicy(principal, tool, call, grants, rules, options);
  // A tool that cannot be confined asks a person even where a rule, grant or trust would allow.
  return decision.mode === 'allow' && tool.approvalFloor !== undefined
    ? ask(tool.approvalFloor)
    : decision;
}

function decideByPolicy(
  principal: Principal,
  tool: PolicyTool,
  call: NormalizedCall,
  grants: readonly Grant[],
  rules: readonly PolicyRule[] = [],
  options: DecideOptions = {},
): PolicyDecision {
  if (!call.ok) return deny(`Refused before approval: ${call.reason}`);
  if (tool.sideEffect && options.sideEffects === 'off') {
    return deny('Side effects are turned off for this runtime (CADRE_SIDE_EFFECTS=off).');
  }
  const trust = principal.trust ?? options.defaultTrust ?? 'delegated';
  const rule = findRule(rules, {
    principal,
    trust,
    tool: tool.name,
    args: call.args,
    recipients: call.recipients,
  });
  if (!tool.sideEffect) return rule ? fromRule(rule) : ALLOW;
  if (rule?.decision === 'deny') return deny(rule.reason);

  switch (trust) {
    case 'supervised':
      // The person asked to see every side effect: allow rules and grants do not skip that.
      return ask(
        rule?.decision === 'require_approval'
          ? rule.reason
          : `Supervised mode: ${tool.name} changes something outside the run and needs approval.`,
      );
    case 'autonomous':
      return rule ? fromRule(rule) : ALLOW;
    case 'delegated':
      return rule ? fromRule(rule) : delegatedDefault(tool, call.recipients, grants);
    default:
      return trust satisfies never;
  }
}

function fromRule(rule: PolicyRule): PolicyDecision {
  switch (rule.decision) {
    case 'allow':
      return ALLOW;
    case 'require_approval':
      return ask(rule.reason);
    case 'deny':
      return deny(rule.reason);
    default:
      return rule.decision satisfies never;
  }
}

/** The default: side effects need a person's approval unless the allowlist covers the call. */
function delegatedDefault(
  tool: PolicyTool,
  recipients: readonly string[] | undefined,
  grants: readonly Grant[],
): PolicyDecision {
  const coverage = grantCoverage(tool.name, recipients, grants);
  if (coverage.covered) return ALLOW;
  // `auto` only where no recipient could be reached without their owner's say-so.
  if (recipients === undefined && tool.defaultApproval === 'auto') return ALLOW;
  if (recipients === undefined) return ask(`${tool.name} has side effects and needs approval.`);
  if (recipients.length === 0) {
    return ask(`${tool.name} needs approval: there is no standing grant for this tool.`);
  }
  const total = recipients.length;
  return ask(
    `${tool.name} needs approval: ${coverage.missing} of ${total} recipient${total === 1 ? ' is' : 's are'} not on the allowlist.`,
  );
}
