import type { Command } from 'commander';
import { loadCommand, TOKEN } from '../command-packages.js';
import type {
  StoreCommandOptions,
  TokenCreateOptions,
  TokenListOptions,
} from '../commands/token.js';
import { jsonOption } from '../options/output-options.js';
import { dbOption } from '../options/server-options.js';
import type { CommandContext } from './command-context.js';

/** `cadre token create|list|revoke`: API tokens for `cadre serve`. */
export function registerToken(program: Command, { io, setExit }: CommandContext): void {
  const token = program.command('token').description('API tokens for cadre serve');
  token
    .command('create')
    .description('Create a token for a user (created on first use); printed once, stored hashed')
    .requiredOption('--user <name>', 'the user the token acts as')
    .addOption(dbOption())
    .option('--create-db', 'create the SQLite database if there is none yet (else: refused)')
    .action(async (options: TokenCreateOptions) => {
      const { tokenCreateCommand } = await loadCommand(() => import('../commands/token.js'), TOKEN);
      setExit(await tokenCreateCommand(options, io));
    });
  token
    .command('list')
    .description('Every token (revoked ones too) by the first digits of its hash; never the token')
    .option('--user <name>', "only this user's tokens")
    .addOption(jsonOption('print the tokens as JSON'))
    .addOption(dbOption())
    .action(async (options: TokenListOptions) => {
      const { tokenListCommand } = await loadCommand(() => import('../commands/token.js'), TOKEN);
      setExit(await tokenListCommand(options, io));
    });
  token
    .command('revoke')
    .description('Revoke a token: its id, or at least 6 digits of the ID that `token list` shows')
    .argument('<id-or-prefix>', 'the token to revoke')
    .addOption(dbOption())
    .action(async (idOrPrefix: string, options: StoreCommandOptions) => {
      const { tokenRevokeCommand } = await loadCommand(() => import('../commands/token.js'), TOKEN);
      setExit(await tokenRevokeCommand(idOrPrefix, options, io));
    });
}
