import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { TelemetryOptions } from '../create-telemetry.js';
import { exporterTelemetry } from '../exporter-telemetry.js';
import type { Telemetry } from '../telemetry.js';

/** Telemetry that keeps its spans in memory; `spans()` flushes first. */
export function memoryTelemetry(options: TelemetryOptions = {}): {
  telemetry: Telemetry;
  spans: () => Promise<SpanTree>;
} {
  const exporter = new InMemorySpanExporter();
  const telemetry = exporterTelemetry(exporter, options);
  return {
    telemetry,
    spans: async () => {
      await telemetry.flush();
      return new SpanTree(exporter.getFinishedSpans());
    },
  };
}

/** Finished spans, looked up by name and by parent. */
export class SpanTree {
  constructor(readonly all: readonly ReadableSpan[]) {}

  named(name: string): ReadableSpan[] {
    return this.all.filter((span) => span.name === name);
  }

  /** The one span of that name (throws when there are none or several). */
  one(name: string): ReadableSpan {
    const found = this.named(name);
    if (found.length !== 1)
      throw new Error(
        `Expected one span "${name}", found ${found.length}: ${this.all.map((s) => s.name).join(', ')}`,
      );
    return found[0] as ReadableSpan;
  }

  parentOf(span: ReadableSpan): ReadableSpan | undefined {
    const parentId = span.parentSpanContext?.spanId;
    return this.all.find((s) => s.spanContext().spanId === parentId);
  }

  childrenOf(span: ReadableSpan): ReadableSpan[] {
    const id = span.spanContext().spanId;
    return this.all.filter((s) => s.parentSpanContext?.spanId === id);
  }

  /** Every attribute key used on any span. */
  attributeKeys(): Set<string> {
    return new Set(this.all.flatMap((span) => Object.keys(span.attributes)));
  }
}
