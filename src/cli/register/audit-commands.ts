import type { Command } from 'commander';
import { AUDIT, loadCommand } from '../command-packages.js';
import type { AuditExportOptions, AuditVerifyOptions } from '../commands/audit.js';
import type { StoreCommandOptions } from '../commands/token.js';
import { dbOption } from '../options/server-options.js';
import type { CommandContext } from './command-context.js';

/** `cadre audit verify|export|seal`: the server's hash-chained audit log. */
export function registerAudit(program: Command, { io, setExit }: CommandContext): void {
  const audit = program
    .command('audit')
    .description(
      'The audit log of the server, hash-chained under a key (CADRE_AUDIT_KEY or .cadre/audit.key)',
    );
  audit
    .command('verify')
    .description('Check the whole chain; exit 0 when intact, 1 with the first broken entry')
    .addOption(dbOption())
    .option(
      '--anchor <file>',
      'an earlier `cadre audit export`: its head must still be in the chain',
    )
    .action(async (options: AuditVerifyOptions) => {
      const { auditVerifyCommand } = await loadCommand(() => import('../commands/audit.js'), AUDIT);
      setExit(await auditVerifyCommand(options, io));
    });
  audit
    .command('export')
    .description('Write the chain as NDJSON, its head last, to keep outside the database')
    .addOption(dbOption())
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .action(async (options: AuditExportOptions) => {
      const { auditExportCommand } = await loadCommand(() => import('../commands/audit.js'), AUDIT);
      setExit(await auditExportCommand(options, io));
    });
  audit
    .command('seal')
    .description('Key a chain written before the audit key existed, from its next entry on')
    .addOption(dbOption())
    .action(async (options: StoreCommandOptions) => {
      const { auditSealCommand } = await loadCommand(() => import('../commands/audit.js'), AUDIT);
      setExit(await auditSealCommand(options, io));
    });
}
