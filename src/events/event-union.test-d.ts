import { expectTypeOf } from 'vitest';
import type { RunResult } from '../contracts/run-result.js';
import type {
  CadreEvent,
  CustomCadreEvent,
  EventInput,
  EventSink,
  ToolCallData,
  WellKnownEventType,
} from './types.js';

/*
 * Type tests (checked by `tsc -p tsconfig.json`, part of `npm test`): the
 * event union is closed, so a check on `type` narrows the data.
 */

declare const event: CadreEvent;
declare const emit: EventSink;

// A check on `type` narrows to that variant and its data.
if (event.type === 'tool_call') {
  expectTypeOf(event.data.callId).toEqualTypeOf<string>();
  expectTypeOf(event.data).toExtend<ToolCallData>();
}
if (event.type === 'final_result') expectTypeOf(event.data.result).toEqualTypeOf<RunResult>();

// A user's own event is `custom`, with its name; narrowing on `type` finds it.
if (event.type === 'custom') {
  expectTypeOf(event).toEqualTypeOf<CustomCadreEvent>();
  expectTypeOf(event.name).toEqualTypeOf<string>();
}

// Every type is either well known or `custom`: nothing else is left.
expectTypeOf<CadreEvent['type']>().toEqualTypeOf<WellKnownEventType | 'custom'>();

// A switch over the types is exhaustive with `satisfies never`.
export function kindOf(e: CadreEvent): string {
  switch (e.type) {
    case 'custom':
      return e.name;
    default:
      if (e.type === 'text_delta') return e.data.text;
      return e.type;
  }
}
export function onlyTwo(e: CadreEvent & { type: 'usage' | 'custom' }): number {
  switch (e.type) {
    case 'usage':
      return e.data.totalTokens;
    case 'custom':
      return 0;
    default:
      return e satisfies never;
  }
}

// An emitter's well-known event has its data checked; a type nobody knows is refused.
emit({ type: 'tool_call', message: 'x', data: { callId: 'c', tool: 't', args: {} } });
emit({ type: 'custom', name: 'probe_progress', message: 'half way', data: { pct: 50 } });
// @ts-expect-error: tool_call's data needs callId, tool and args
emit({ type: 'tool_call', message: 'x', data: { tool: 't' } });
// @ts-expect-error: an unknown type is not an event; a user's own is `custom` with a name
emit({ type: 'probe_progress', message: 'half way' });
// @ts-expect-error: a custom event names itself
emit({ type: 'custom', message: 'nameless' });
expectTypeOf<{ type: 'made_up'; message: string }>().not.toExtend<EventInput>();
