export * from './types.js';
export { decide } from './decide.js';
export { ANY_RECIPIENT, grantCoverage, grantsForApproval, type GrantCoverage } from './grants.js';
export { findRule, RECIPIENTS_ARG, type RuleSubject } from './rules.js';
export { matchArg, quantifierFor, type Quantifier } from './arg-matchers.js';
export { normalizeCall, TOOL_NORMALIZERS, type CallNormalizer } from './normalize-call.js';
export {
  applyVerdict,
  runAfterInterceptors,
  runBeforeInterceptors,
  type BeforeVerdict,
  type CombinedVerdict,
  type InterceptedCall,
  type ToolCallOutcome,
  type ToolInterceptor,
} from './interceptors.js';
export {
  buildAuditEntry,
  type AuditFacts,
  type AuditFields,
  type ExecutionFact,
  type ExecutionStatus,
} from './audit-entry.js';
export { sanitizeMessage, MAX_SANITIZED_CHARS } from './sanitize.js';
