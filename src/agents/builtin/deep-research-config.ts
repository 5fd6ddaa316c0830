import { ConfigError } from '../../errors/cadre-error.js';

export const DEEP_RESEARCH_NAME = 'deep_research';
export const DEEP_RESEARCH_DESCRIPTION =
  'Researches a question in depth: splits it into sub-queries, researches them in parallel, ' +
  'and synthesizes one answer. Tolerates partial failure.';

/** Fractions of the total budget; each phase also stops when the whole budget is spent. */
export interface PhaseBudgets {
  decomposition: number;
  subQueries: number;
  synthesis: number;
}

export interface DeepResearchConfig {
  maxSubQueries: number;
  /** Sub-queries running at once. */
  maxConcurrent: number;
  totalTimeoutMs: number;
  phaseBudgets: PhaseBudgets;
  /** Models per phase; absent: the run's model. Own calls go through the run's client. */
  models?: { decomposition?: string; subQueries?: string; synthesis?: string };
}

export type DeepResearchOptions = Partial<Omit<DeepResearchConfig, 'phaseBudgets'>> & {
  phaseBudgets?: Partial<PhaseBudgets>;
};

export const DEEP_RESEARCH_DEFAULTS: Readonly<DeepResearchConfig> = Object.freeze({
  maxSubQueries: 5,
  maxConcurrent: 3,
  totalTimeoutMs: 180_000,
  phaseBudgets: Object.freeze({ decomposition: 0.15, subQueries: 0.6, synthesis: 0.25 }),
});

/** Defaults filled in and every problem reported at once (ConfigError), before any run. */
export function deepResearchConfig(options: DeepResearchOptions = {}): DeepResearchConfig {
  const config: DeepResearchConfig = {
    ...DEEP_RESEARCH_DEFAULTS,
    ...options,
    phaseBudgets: { ...DEEP_RESEARCH_DEFAULTS.phaseBudgets, ...options.phaseBudgets },
  };
  const problems: string[] = [];
  if (!Number.isInteger(config.maxSubQueries) || config.maxSubQueries < 1)
    problems.push('maxSubQueries must be an integer of at least 1');
  if (!Number.isInteger(config.maxConcurrent) || config.maxConcurrent < 1)
    problems.push('maxConcurrent must be an integer of at least 1');
  if (!(config.totalTimeoutMs > 0) || !Number.isFinite(config.totalTimeoutMs))
    problems.push('totalTimeoutMs must be a positive number of milliseconds');
  const budgets = Object.entries(config.phaseBudgets);
  for (const [phase, fraction] of budgets) {
    if (!(fraction > 0 && fraction <= 1))
      problems.push(`phaseBudgets.${phase} must be a fraction in (0, 1]`);
  }
  const sum = budgets.reduce((total, [, fraction]) => total + fraction, 0);
  if (sum > 1 + 1e-9) problems.push(`phaseBudgets add up to ${sum}, more than 1`);
  if (problems.length > 0)
    throw new ConfigError(`Invalid deep_research config: ${problems.join('; ')}.`);
  return config;
}
