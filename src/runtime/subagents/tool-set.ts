import type { ResolvedToolSet, ToolSet } from '../../contracts/tool-set.js';

export type { ResolvedToolSet, ToolSet };

export const ToolSets = {
  all: { kind: 'all' } as ToolSet,
  none: { kind: 'none' } as ToolSet,
  inherit: { kind: 'inherit' } as ToolSet,
  specific: (names: readonly string[]): ToolSet => ({ kind: 'specific', names }),
  except: (names: readonly string[]): ToolSet => ({ kind: 'except', names }),
  inheritExcept: (names: readonly string[]): ToolSet => ({ kind: 'inherit_except', names }),
};

export function needsResolution(set: ToolSet): boolean {
  return set.kind === 'inherit' || set.kind === 'inherit_except';
}

/** Replaces inherit forms with the parent's set (the guide's resolution rule). */
export function resolveToolSet(set: ToolSet, parent: ResolvedToolSet): ResolvedToolSet {
  switch (set.kind) {
    case 'inherit':
      return parent;
    case 'inherit_except':
      return subtract(parent, set.names);
    case 'all':
    case 'none':
    case 'specific':
    case 'except':
      return set;
    default:
      return set satisfies never;
  }
}

function subtract(parent: ResolvedToolSet, names: readonly string[]): ResolvedToolSet {
  switch (parent.kind) {
    case 'all':
      return { kind: 'except', names };
    case 'none':
      return parent;
    case 'specific':
      return { kind: 'specific', names: parent.names.filter((n) => !names.includes(n)) };
    case 'except':
      return { kind: 'except', names: [...new Set([...parent.names, ...names])] };
    default:
      return parent satisfies never;
  }
}

/** The concrete names a resolved set selects from the available ones, in available order. */
export function selectTools(set: ResolvedToolSet, available: readonly string[]): string[] {
  switch (set.kind) {
    case 'all':
      return [...available];
    case 'none':
      return [];
    case 'specific':
      return available.filter((name) => set.names.includes(name));
    case 'except':
      return available.filter((name) => !set.names.includes(name));
    default:
      return set satisfies never;
  }
}

/**
 * The form a model (or a definition) writes: a list of names, or one of
 * "all" | "none" | "inherit", or {except: [...]} / {inherit_except: [...]}.
 * Returns undefined for anything else.
 */
export function parseToolSet(value: unknown): ToolSet | undefined {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return ToolSets.specific(value);
  if (value === 'all' || value === 'none' || value === 'inherit') return { kind: value };
  if (typeof value === 'object' && value !== null) {
    const names = (key: string): string[] | undefined => {
      const list = (value as Record<string, unknown>)[key];
      return Array.isArray(list) && list.every((v) => typeof v === 'string') ? list : undefined;
    };
    const except = names('except');
    if (except) return ToolSets.except(except);
    const inheritExcept = names('inherit_except');
    if (inheritExcept) return ToolSets.inheritExcept(inheritExcept);
  }
  return undefined;
}
