import { ConfigError } from '../errors/cadre-error.js';
import { MODEL_SPECIFICATION_VERSION, type ModelClient } from './types.js';

/**
 * The client, once its contract version is one this runtime speaks. A client
 * built for another version would stream chunks this loop misreads, so it is
 * refused up front with a message naming both versions. One without the field
 * predates it and speaks version 1.
 */
export function checkedClient(client: ModelClient): ModelClient {
  const version: unknown = client.specificationVersion;
  if (version === undefined || version === MODEL_SPECIFICATION_VERSION) return client;
  throw new ConfigError(
    `The model client "${String(client.provider)}" implements ${JSON.stringify(version)}; ` +
      `this Cadre speaks ${MODEL_SPECIFICATION_VERSION}. Use a client built for it.`,
  );
}
