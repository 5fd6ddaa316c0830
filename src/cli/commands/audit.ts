import { openStore } from '../../store/open-store.js';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle } from '../style.js';
import { storeUrlFor, type StoreCommandOptions } from './token.js';

/** `cadre audit verify`: walks the hash chain; exit 0 when intact, 1 with the first broken seq. */
export async function auditVerifyCommand(options: StoreCommandOptions, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  try {
    const store = await openStore({ url: storeUrlFor(options, io) });
    try {
      const result = await store.verifyAudit();
      if (result.ok) {
        io.stdout(`${style.green('ok')} audit chain intact: ${result.count} entries\n`);
        return EXIT.ok;
      }
      io.stdout(
        `${style.red('broken')} audit chain broken at seq ${result.brokenAt} (${result.reason})\n`,
      );
      return EXIT.failed;
    } finally {
      await store.close();
    }
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}
