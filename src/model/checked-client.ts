import { ConfigError } from '../errors/cadre-error.js';
import { MODEL_SPECIFICATION_VERSION, type ModelClient } from './types.js';

/**
 * The client, once its contract version is one this runtime speaks. A client
 * built for another version would stream chunks this loop misreads, so it is
 * refused up front with a message naming both versions. The field is required;
 * a client without it (plain JavaScript, or a cast) is refused too rather than guessed.
 */
export function checkedClient(client: ModelClient): ModelClient {
  const version: unknown = client.specificationVersion;
  if (version === MODEL_SPECIFICATION_VERSION) return client;
  if (version === undefined)
    throw new ConfigError(
      `The model client "${String(client.provider)}" does not say which contract it implements; ` +
        `set specificationVersion: '${MODEL_SPECIFICATION_VERSION}'.`,
    );
  throw new ConfigError(
    `The model client "${String(client.provider)}" implements ${JSON.stringify(version)}; ` +
      `this Cadre speaks ${MODEL_SPECIFICATION_VERSION}. Use a client built for it.`,
  );
}
