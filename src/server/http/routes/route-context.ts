import type { RunService } from '../../run-service-types.js';
import type { RequestSignals } from '../request-signals.js';

/** What every route group is given: the core, and each request's signal (client gone or server closing). */
export interface RouteContext {
  service: RunService;
  requestSignal: RequestSignals;
}
