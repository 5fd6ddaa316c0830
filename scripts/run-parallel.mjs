// Runs npm scripts side by side (a 2-core machine type-checks and lints at once),
// prints each one's output whole when it ends, with its time, and fails if any failed.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs <npm script>...');
  process.exit(2);
}

const run = (name) =>
  new Promise((resolve) => {
    const started = performance.now();
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      const text = Buffer.concat(output).toString('utf8').trimEnd();
      console.log(`${ok ? '✓' : '✗'} ${name} (${seconds} s)${ok ? '' : `: exit ${code ?? signal}`}`);
      if (text && !ok) console.log(text);
      resolve(ok);
    });
  });

const results = await Promise.all(names.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
