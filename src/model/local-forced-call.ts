/**
 * A chat wrapper whose answer must be a function call: the model's turn
 * opens with its template's call prefix and the library starts in
 * function-name mode, so grammars pick the name and shape the arguments.
 * Used when an agent can only finish through `complete_task`: there a
 * text-only turn would end the run unfinished, and a small model often
 * answers in prose when it should call.
 */
import type { ChatWrapper } from 'node-llama-cpp';
import type { LlamaLibrary } from './local-model-host.js';

export function forcedCallWrapper(inner: ChatWrapper, lib: LlamaLibrary): ChatWrapper {
  return new Proxy(inner, {
    get(target, property) {
      if (property === 'generateContextState') {
        return (options: Parameters<ChatWrapper['generateContextState']>[0]) => {
          const state = target.generateContextState(options);
          return {
            ...state,
            contextText: lib.LlamaText([state.contextText, target.settings.functions.call.prefix]),
            functionCall: { initiallyEngaged: true, disengageInitiallyEngaged: [] },
          };
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
