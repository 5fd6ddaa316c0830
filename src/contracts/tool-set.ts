/**
 * Which tools a subagent may use (authoring guide 002). `inherit` forms
 * depend on the parent and must be resolved at spawn; only a resolved set
 * can be used to build a registry.
 */
export type ToolSet =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'specific'; names: readonly string[] }
  | { kind: 'except'; names: readonly string[] }
  | { kind: 'inherit' }
  | { kind: 'inherit_except'; names: readonly string[] };

export type ResolvedToolSet = Exclude<ToolSet, { kind: 'inherit' } | { kind: 'inherit_except' }>;
