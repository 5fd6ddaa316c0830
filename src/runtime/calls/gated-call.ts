import type { FunctionCallPart } from '../../model/types.js';
import type { Tool } from '../../tools/types.js';
import { execute } from './approvals.js';
import type { CallEnvironment, CallOutcome } from './call-environment.js';
import { NORMALIZED_TOOLS } from './normalized-tools.js';

/**
 * Every tool call of every execution passes here, so one gate sees them all:
 * it decides (rules, trust, kill switch, grants, then every interceptor), a
 * refused call is answered and never run, a call that needs a person goes to
 * the confirmation handler, and every observer hears the outcome. A plain
 * read runs at once; anything else loads the gate's whole path on first use.
 */
export function gatedCall(
  call: FunctionCallPart,
  tool: Tool,
  env: CallEnvironment,
): Promise<CallOutcome> {
  if (plainRead(call, tool, env)) return execute(call, tool, env);
  return import('./full-gate.js').then(({ gated }) => gated(call, tool, env));
}

/**
 * A read-only call under a gate without rules, with nobody observing: the
 * gate would allow it (grants, trust and the side-effect switch only concern
 * side effects) and tell no one, so it runs straight away. This is most
 * calls of most runs.
 */
function plainRead(call: FunctionCallPart, tool: Tool, env: CallEnvironment): boolean {
  return (
    !tool.sideEffect &&
    tool.approvalFloor === undefined &&
    (env.policy === undefined || (env.policy.rules.length === 0 && !env.policy.remote)) &&
    !env.interceptors?.length &&
    env.patterns?.[tool.name] === undefined &&
    !NORMALIZED_TOOLS.has(tool.name) &&
    typeof call.args === 'object' &&
    call.args !== null &&
    !Array.isArray(call.args)
  );
}
