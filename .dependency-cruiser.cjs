/**
 * The structure rules `pnpm lint` checks (dependency-cruiser): no import cycles, production code
 * free of test and demo tooling, the shared packages below the services, and each component's
 * layers (routes → domain → data-access) pointing one way. docs/architecture.md draws the result.
 */
/** Production code: what the services run. The test tooling and the data generator are not. */
const PRODUCTION = '^(packages/(contracts|db|aggregates|service-kit)|services/[^/]+)/src/';

/** The arrows between production packages that the README's Layout draws; any other is an error. */
const MAY_IMPORT = {
  'packages/contracts': [],
  'packages/db': [],
  'packages/service-kit': ['packages/contracts'],
  'packages/aggregates': ['packages/contracts', 'packages/db'],
  'services/member': ['packages/contracts', 'packages/db', 'packages/service-kit'],
  'services/backoffice': ['packages/contracts', 'packages/db', 'packages/service-kit', 'packages/aggregates'],
  'services/aggregation-worker': ['packages/contracts', 'packages/db', 'packages/service-kit', 'packages/aggregates'],
};
/**
 * The commands people type (`pnpm aggregate`, `retention`, `bench`, `test`, `db:migrate`,
 * `ai:eval`): their entry files parse the arguments before loading anything heavy.
 */
const COMMANDS = '^(services/[^/]+/src/cli/[^/]+|bench/src/bench|scripts/(run-tests|db-migrate)|tools/ai-eval/src/run-eval)\\.ts$';

const packageArrows = Object.entries(MAY_IMPORT).map(([from, to]) => ({
  name: `layout-${from.split('/')[1]}`,
  severity: 'error',
  comment: `${from} may import only ${to.join(', ') || 'no workspace package'} (README › Layout).`,
  from: { path: `^${from}/src/` },
  to: { path: '^(packages|services)/[^/]+/', pathNot: [`^${from}/`, ...to.map((t) => `^${t}/`)] },
}));

module.exports = {
  forbidden: [
    ...packageArrows,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: move the shared types into model.ts / deps.ts or the function beside its one user.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'production-free-of-tooling',
      severity: 'error',
      comment: 'Production code must not import test tooling, the demo/bench data generator, tools, tests or the bench.',
      from: { path: PRODUCTION },
      to: { path: '^(packages/(testing|data-generator)|tools|tests|bench)/' },
    },
    {
      name: 'packages-below-services',
      severity: 'error',
      comment: 'The shared packages are built on by the services, never the other way round.',
      from: { path: '^packages/' },
      to: { path: '^services/' },
    },
    {
      name: 'services-independent',
      severity: 'error',
      comment: "A service's source never imports another service's source (tests may run other services).",
      from: { path: '^services/([^/]+)/src/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'data-access-is-the-bottom',
      severity: 'error',
      comment: "Data access reads and writes rows; it imports only other data access, its component's model.ts and shared helpers.",
      from: { path: '^services/[^/]+/src/.+/data-access/' },
      to: { path: '^services/[^/]+/src/', pathNot: ['/data-access/', '/model\\.ts$', '^services/[^/]+/src/shared/'] },
    },
    {
      name: 'routes-are-entry-points',
      severity: 'error',
      comment: "A component's routes are mounted by its service's app.ts and imported by nothing else.",
      from: { pathNot: '^services/[^/]+/src/app\\.ts$' },
      to: { path: '^services/[^/]+/src/.+/routes\\.ts$' },
    },
    {
      name: 'commands-parse-first',
      severity: 'error',
      comment:
        "A command's entry file imports only Node, its argument parsing and the wire shapes (contracts, ~0.3 s) up front, and the rest with await import() once the arguments parse: a typo or --help answers in about a second, not after Express, Redis and the database code load.",
      from: { path: COMMANDS },
      to: {
        dynamic: false,
        dependencyTypesNot: ['core', 'type-only'],
        pathNot: ['^packages/service-kit/src/command-line\\.ts$', '^bench/src/options\\.ts$', '^packages/contracts/src/index\\.ts$'],
      },
    },
    {
      name: 'model-is-types',
      severity: 'error',
      comment: "A component's model.ts holds shapes: it imports no domain, data access or routes.",
      from: { path: '/model\\.ts$' },
      to: { path: '^services/[^/]+/src/.+/(?!model\\.ts$)[^/]+$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '(^|/)test/', '\\.test\\.ts$'] },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
      mainFields: ['main', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
