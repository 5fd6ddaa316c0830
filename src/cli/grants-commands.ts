import type { Command } from 'commander';
import type { CliIO } from './cli-io.js';
import { loadCommand, TOKEN } from './command-packages.js';

const GRANTS = { ...TOKEN, needs: 'cadre grants needs' };

/** `cadre grants list|revoke`: the "always allow" grants of `cadre serve`'s users, in the database `cadre token` uses. */
export function grantsCommands(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const grants = program
    .command('grants')
    .description(
      '"Always allow" grants given on approval cards: which agent may reach whom unasked',
    );
  const db = [
    '--db <url>',
    'postgres://… or a SQLite file (default: CADRE_DATABASE_URL, then .cadre/cadre.db)',
  ] as const;
  grants
    .command('list')
    .description(
      'Every grant: its id, user, agent, tool, recipient, and when and by whom it was set',
    )
    .option('--user <name>', "only this user's grants")
    .option('--json', 'print the grants as JSON')
    .option(...db)
    .action(async (options: { user?: string; json?: boolean; db?: string }) => {
      const { grantsListCommand } = await loadCommand(() => import('./commands/grants.js'), GRANTS);
      setExit(await grantsListCommand(options, io));
    });
  grants
    .command('revoke')
    .description('Undo a grant by the id `grants list` shows: the agent asks again next time')
    .argument('<id>', 'the grant to revoke')
    .option(...db)
    .action(async (id: string, options: { db?: string }) => {
      const { grantsRevokeCommand } = await loadCommand(
        () => import('./commands/grants.js'),
        GRANTS,
      );
      setExit(await grantsRevokeCommand(id, options, io));
    });
}
