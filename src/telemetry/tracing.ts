import type { Attributes, Tracer } from '@opentelemetry/api';
import type { TraceCarrier } from '../contracts/trace-carrier.js';
import { GenAI, type GenAIOperation } from './gen-ai-attributes.js';

export interface EventTracerOptions {
  captureContent: boolean;
  conversationId?: string;
  /** The caller's trace (an incoming `traceparent`): the run's spans continue it. */
  parent?: TraceCarrier;
}

/** What every span-making step needs: the tracer and whether content is captured. */
export interface Tracing {
  readonly tracer: Tracer;
  readonly options: EventTracerOptions;
}

export const operation = (name: GenAIOperation): Attributes => ({ [GenAI.operationName]: name });

export const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

export const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);
