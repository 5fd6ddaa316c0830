import type { Command } from 'commander';
import { loadCommand, TOKEN } from '../command-packages.js';
import type { GrantsListOptions } from '../commands/grants.js';
import type { StoreCommandOptions } from '../commands/token.js';
import { jsonOption } from '../options/output-options.js';
import { dbOption } from '../options/server-options.js';
import type { CommandContext } from './command-context.js';

const GRANTS = { ...TOKEN, needs: 'cadre grants needs' };

/** `cadre grants list|revoke`: the "always allow" grants of `cadre serve`'s users, in the database `cadre token` uses. */
export function registerGrants(program: Command, { io, setExit }: CommandContext): void {
  const grants = program
    .command('grants')
    .description(
      '"Always allow" grants given on approval cards: which agent may reach whom unasked',
    );
  grants
    .command('list')
    .description(
      'Every grant: its id, user, agent, tool, recipient, and when and by whom it was set',
    )
    .option('--user <name>', "only this user's grants")
    .addOption(jsonOption('print the grants as JSON'))
    .addOption(dbOption())
    .action(async (options: GrantsListOptions) => {
      const { grantsListCommand } = await loadCommand(
        () => import('../commands/grants.js'),
        GRANTS,
      );
      setExit(await grantsListCommand(options, io));
    });
  grants
    .command('revoke')
    .description('Undo a grant by the id `grants list` shows: the agent asks again next time')
    .argument('<id>', 'the grant to revoke: its id, or a unique start or end of it (6+ characters)')
    .addOption(dbOption())
    .action(async (id: string, options: StoreCommandOptions) => {
      const { grantsRevokeCommand } = await loadCommand(
        () => import('../commands/grants.js'),
        GRANTS,
      );
      setExit(await grantsRevokeCommand(id, options, io));
    });
}
