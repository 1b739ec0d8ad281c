/**
 * `pnpm bench -- --scale small|full`: generate or reuse a data set, start the processes, measure
 * every hot path next to its reference from the same run, print the table and write
 * `bench/results/<date>.json` and `.md`. A row whose piece is missing prints why instead of a
 * figure; the run itself only fails when the harness cannot start.
 */
import { runMain } from '@bo/service-kit/command-line';
import { parseOptions, USAGE } from './options.ts';

let options: ReturnType<typeof parseOptions>;
try {
  options = parseOptions(process.argv.slice(2));
} catch (err) {
  // A usage error: the message (with the usage) and exit 2, not a stack trace.
  const message = (err as Error).message;
  console.error(message.includes(USAGE) ? message : `${message}\n\n${USAGE}`);
  process.exit(process.argv.includes('--help') ? 0 : 2);
}

// The run's code (the services, the generator, the database) loads once the options parse: a typo
// or --help answers in about a second.
const { runBench } = await import('./run-bench.ts');
await runMain(() => runBench(options));
