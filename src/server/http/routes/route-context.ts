import type { RunService } from '../../run-service-types.js';

/** What every route group is given: the core and the server's lifetime (aborted on close). */
export interface RouteContext {
  service: RunService;
  lifetime: AbortSignal;
}
