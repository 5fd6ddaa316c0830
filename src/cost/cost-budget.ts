/**
 * Money held for one model call until its real cost is known. Settling
 * gives back what the call did not use (or takes what it overran by).
 */
export interface CostHold {
  /** What was held, in US dollars: the call's worst case. */
  readonly usd: number;
  /** The call's real cost (0 when unknown). Only the first settle counts. */
  settle(actualUsd: number): void;
}

/** A reservation either holds the money or names the cap it would not fit under. */
export type Reservation = { kind: 'held'; hold: CostHold } | { kind: 'refused'; limitUsd: number };

/**
 * One execution's share of a run tree's `max_cost_usd`. Each execution has
 * its own node, linked to its parent's: a call must fit under every cap from
 * its own up to the root's, and what it spends counts at every level. So the
 * root's cap bounds the whole tree, and a child's lower cap stays its own.
 *
 * Reserving is synchronous (check and hold in one step), so concurrent
 * children in one process cannot both take the last dollar.
 */
export class CostBudget {
  /** This execution's own cap (Infinity: none; its ancestors' caps still apply). */
  readonly limitUsd: number;
  readonly parent: CostBudget | undefined;
  #spentUsd: number;
  #heldUsd = 0;
  /** Kept at the root: billed input over estimated input, the largest seen in the tree (at least 1). */
  #inputScale = 1;
  readonly #onSpent: ((spentUsd: number) => void) | undefined;
  /** This node, then each ancestor up to the root. */
  readonly #chain: readonly CostBudget[];

  private constructor(
    limitUsd: number | undefined,
    parent: CostBudget | undefined,
    spentUsd: number,
    onSpent: ((spentUsd: number) => void) | undefined,
  ) {
    this.limitUsd = limitUsd ?? Infinity;
    this.parent = parent;
    this.#spentUsd = spentUsd;
    this.#onSpent = onSpent;
    this.#chain = parent ? [this, ...parent.#chain] : [this];
  }

  /**
   * The budget of one execution: under `parent` when it is a child. `spentUsd`
   * is what this execution and its subtree spent before (a resumed run): it
   * already counts in the parent's, so it is not added there again.
   */
  static open(options: {
    limitUsd?: number | undefined;
    parent?: CostBudget | undefined;
    spentUsd?: number;
    onSpent?: (spentUsd: number) => void;
  }): CostBudget {
    return new CostBudget(options.limitUsd, options.parent, options.spentUsd ?? 0, options.onSpent);
  }

  /** Settled spending of this execution and everything below it. */
  spentUsd(): number {
    return this.#spentUsd;
  }

  /** What a new call may still hold: the least room under any cap up to the root. */
  remainingUsd(): number {
    let room = Infinity;
    for (const node of this.#chain) room = Math.min(room, node.#room());
    return room;
  }

  /** True when some cap up the chain applies: calls are then sent with a bounded output. */
  bounded(): boolean {
    for (const node of this.#chain) if (Number.isFinite(node.limitUsd)) return true;
    return false;
  }

  /** The cap that leaves no room for another call, if any (spent and held included). */
  exhausted(): number | undefined {
    return this.#refuser(0);
  }

  /** The cap `usd` would not fit under, or undefined when it fits. */
  wouldRefuse(usd: number): number | undefined {
    return this.#refuser(usd);
  }

  /** The finite cap with the least room left up the chain (the one a refusal names), if any. */
  tightestLimit(): number | undefined {
    let best: CostBudget | undefined;
    for (const node of this.#chain) {
      if (!Number.isFinite(node.limitUsd)) continue;
      if (!best || node.#room() < best.#room()) best = node;
    }
    return best?.limitUsd;
  }

  /** Holds `usd` at every level, or refuses without holding anything. */
  reserve(usd: number): Reservation {
    const refusedBy = this.#refuser(usd);
    if (refusedBy !== undefined) return { kind: 'refused', limitUsd: refusedBy };
    this.#walk((node) => {
      node.#heldUsd += usd;
    });
    let open = true;
    return {
      kind: 'held',
      hold: {
        usd,
        settle: (actualUsd) => {
          if (!open) return;
          open = false;
          this.#walk((node) => {
            node.#heldUsd -= usd;
            node.#spentUsd += actualUsd;
            node.#onSpent?.(node.#spentUsd);
          });
        },
      },
    };
  }

  /**
   * How much to scale input estimates by: the largest ratio of billed to
   * estimated input any call of the tree has shown. The first settled call
   * calibrates every later reservation, so a tokenizer that counts more than
   * the estimate assumes is misjudged once, not by every call after.
   */
  inputScale(): number {
    return this.#root().#inputScale;
  }

  /** Learns from one settled call how its input was billed against its estimate. */
  observeInput(estimatedTokens: number, billedTokens: number): void {
    if (estimatedTokens <= 0) return;
    const root = this.#root();
    root.#inputScale = Math.max(root.#inputScale, billedTokens / estimatedTokens);
  }

  /** Counts spending that held nothing first (a worker thread's child, told when it ends). */
  charge(usd: number): void {
    if (usd === 0) return;
    this.#walk((node) => {
      node.#spentUsd += usd;
      node.#onSpent?.(node.#spentUsd);
    });
  }

  // A spent cap refuses even a call of unknown price: nothing more starts once it is reached.
  #refuser(usd: number): number | undefined {
    for (const node of this.#chain) {
      const room = node.#room();
      if (room <= 0 || usd > room) return node.limitUsd;
    }
    return undefined;
  }

  #root(): CostBudget {
    return this.#chain[this.#chain.length - 1] ?? this;
  }

  #room(): number {
    return this.limitUsd - this.#spentUsd - this.#heldUsd;
  }

  #walk(step: (node: CostBudget) => void): void {
    for (const node of this.#chain) step(node);
  }
}
