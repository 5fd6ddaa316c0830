import { ConfigError } from '../errors/cadre-error.js';
import { resolveModelClient, type ResolvedModel } from '../model/resolve-model.js';
import type { CliIO } from './cli-io.js';

/**
 * The model resolver of a command: the library's advice names models and
 * variables; on the command line it also says which flag chooses the model.
 */
export function cliModelResolver(io: CliIO): (model: string) => ResolvedModel {
  return (model) => {
    try {
      return resolveModelClient(model, io.env, { cwd: io.cwd });
    } catch (error) {
      if (error instanceof ConfigError)
        throw new ConfigError(`${error.message} Choose the model with --model or CADRE_MODEL.`, {
          cause: error,
        });
      throw error;
    }
  };
}
