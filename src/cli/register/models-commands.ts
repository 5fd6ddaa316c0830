import type { Command } from 'commander';
import { jsonOption } from '../options/output-options.js';
import type { ModelsListOptions } from '../commands/models.js';
import type { CommandContext } from './command-context.js';

/** `cadre models pull|list|rm`: GGUF models for `local:` in CADRE_MODELS_DIR. */
export function registerModels(program: Command, { io, setExit }: CommandContext): void {
  const models = program
    .command('models')
    .description('Local GGUF models for --model local:… (pulled into CADRE_MODELS_DIR)');
  models
    .command('pull')
    .description(
      'Download a model with a progress bar: an alias (`models list --available`), hf:<user>/<repo>:<quant> or an https URL',
    )
    .argument('<uri>', 'the model, e.g. qwen3-0.6b or hf:Qwen/Qwen3-0.6B-GGUF:Q8_0')
    .action(async (uri: string) => {
      const { modelsPullCommand } = await import('../commands/models.js');
      setExit(await modelsPullCommand(uri, io));
    });
  models
    .command('list')
    .description('The pulled models and their sizes')
    .option('--available', 'the short aliases of small models with tool use, to pull by name')
    .addOption(jsonOption('print the models as JSON'))
    .action(async (options: ModelsListOptions) => {
      const { modelsListCommand } = await import('../commands/models.js');
      setExit(await modelsListCommand(options, io));
    });
  models
    .command('rm')
    .description('Remove a pulled model by the name `models list` shows')
    .argument('<name>', 'the file name, e.g. hf_Qwen_Qwen3-0.6B.Q8_0.gguf')
    .action(async (name: string) => {
      const { modelsRmCommand } = await import('../commands/models.js');
      setExit(await modelsRmCommand(name, io));
    });
}
