/**
 * Mocha settings every package shares (each package's `.mocharc.cjs` calls this with its timeout).
 * The default spec (every `test/**\/*.test.ts`) applies only when the command line names no test
 * file or folder: mocha appends command-line specs to the configured ones, so with a fixed
 * `spec` here `mocha test/one.test.ts` would run the whole package.
 */
const namesTests = (args) => args.some((arg) => !arg.startsWith('-') && /\.test\.ts$|(^|\/)test(\/|$)/.test(arg));

module.exports = ({ timeout }) => ({
  'node-option': ['import=tsx'],
  ...(namesTests(process.argv.slice(2)) ? {} : { spec: ['test/**/*.test.ts'] }),
  extension: ['ts'],
  timeout,
  exit: true,
  // A run that finds no test is a failure, not a silent pass.
  'fail-zero': true,
});
