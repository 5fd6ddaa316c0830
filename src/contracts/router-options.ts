/** How a `kind: router` definition routes (agent-format config keys); a caller's choice for a run. */
export interface RouterOptions {
  /** `threads`: each domain runs in a worker thread (agent-format `execution_mode`). */
  executionMode?: 'async' | 'threads';
  /** Per-role models (agent-format `model_overrides`); `router` picks the routing call's model. */
  models?: { router?: string; domain?: string; synth?: string };
  /** Restrict routing to these domains (agent-format `only_domains`). */
  onlyDomains?: readonly string[];
  domainTimeoutSecs?: number;
}
