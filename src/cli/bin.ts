#!/usr/bin/env node
/**
 * The installed `cadre` command. It checks the Node version before loading
 * anything else, so a user on an older Node reads what to do instead of a
 * syntax or import error from deep inside. Nothing here may need Node 22.
 */
const MINIMUM_MAJOR = 22;
const major = Number(process.versions.node.split('.')[0]);

if (major < MINIMUM_MAJOR) {
  process.stderr.write(
    `cadre needs Node ${MINIMUM_MAJOR} or later; this is Node ${process.versions.node} (${process.execPath}).\n` +
      `Install Node ${MINIMUM_MAJOR} (https://nodejs.org, or \`nvm install ${MINIMUM_MAJOR}\`) and put it first on PATH.\n`,
  );
  // A setup problem, as the CLI's other setup errors.
  process.exitCode = 2;
} else {
  await import('./main.js');
}
