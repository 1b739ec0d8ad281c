/**
 * Argument parsing shared by the root commands and the worker's CLIs. pnpm hands a literal `--` to the script when the
 * user types one (`pnpm dev:token -- --user x`), so it is dropped: `--` is optional everywhere.
 * A usage error prints the message and the usage text on stderr and exits 2, never a stack trace.
 * Imports nothing but Node (`@bo/service-kit/command-line`): a command parses its arguments before
 * it loads Express, Redis or the schemas, so a typo or `--help` answers in about a second.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The arguments as typed, without the separator pnpm passes through. */
export const typedArgs = (argv = process.argv.slice(2)): string[] => argv.filter((a) => a !== '--');

/** Print `message` and the usage on stderr, exit 2. */
export function usageError(message: string, usage: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

/** `--help`/`-h` prints the usage and exits 0; an unknown option or a stray value is a usage error. */
export function parseCommandLine<O extends Options>(usage: string, options: O, argv = typedArgs()) {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    return usageError((err as Error).message, usage);
  }
}

/** Entry points: print a config error plainly and exit 1 instead of a stack trace. */
export async function runMain(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    console.error((err as Error).name === 'ConfigError' ? (err as Error).message : err);
    process.exit(1);
  }
}
