import type { ApprovalBinding } from '../../contracts/run-state.js';
import type { FunctionCallPart } from '../../model/types.js';
import { normalizeCall } from '../../policy/normalize-call.js';
import type { Tool } from '../../tools/types.js';
import { canonicalHash } from '../../util/canonical-json.js';

export type { ApprovalBinding };

/** The side-effect class an approval is bound to: a tool re-registered as another class is asked again. */
export function toolClassOf(tool: Pick<Tool, 'sideEffect' | 'defaultApproval'>): string {
  if (!tool.sideEffect) return 'none';
  return tool.defaultApproval ? `effect:${tool.defaultApproval}` : 'effect';
}

/** The inputHash of a call: its normalised arguments (as the store and the audit log hash them). */
export function inputHashOf(tool: string, args: Record<string, unknown>): string {
  const normalized = normalizeCall(tool, args);
  return canonicalHash(normalized.ok ? normalized.args : args);
}

/** What a person approving this call now would approve. */
export function bindingOf(
  call: FunctionCallPart,
  tool: Tool,
  definitionHash: string,
): ApprovalBinding {
  return {
    tool: tool.name,
    inputHash: inputHashOf(tool.name, call.args),
    definitionHash,
    toolClass: toolClassOf(tool),
  };
}

/**
 * Why an approval given for `approved` does not cover the call as it is now
 * (`current`), or undefined when it does. Every binding known must match, and
 * at least one must be known: an approval bound to nothing fails closed.
 */
export function staleReason(
  current: ApprovalBinding,
  approved: ReadonlyArray<ApprovalBinding | undefined>,
): string | undefined {
  const known = approved.filter((b): b is ApprovalBinding => b !== undefined);
  if (known.length === 0) return 'the approval is not bound to a call';
  for (const binding of known) {
    if (binding.tool !== current.tool) return 'the tool changed';
    if (binding.inputHash !== current.inputHash) return 'the arguments changed';
    if (binding.definitionHash !== current.definitionHash) return "the agent's definition changed";
    if (binding.toolClass !== current.toolClass) return "the tool's side-effect class changed";
  }
  return undefined;
}
