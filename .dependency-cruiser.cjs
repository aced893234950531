// The import rules of the monorepo, checked by `npm run lint:deps` (part of `npm run lint` and so of `npm test`).
// Two levels: which package may import which (design §2), and inside command-api/src the direction
// between business capabilities. docs/architecture.md explains both in prose.

/** command-api/src's capabilities, lowest first: each may import the ones before it, never one after it. */
const CAPABILITIES = ['staff', 'company', 'approvals', 'members', 'identity', 'lending', 'wallet', 'servicing', 'statistics', 'rates', 'audit', 'health'];

const API = '^command-api/src/';
const testFile = '(\\.(spec|test)\\.tsx?$|/testing/)';
/** The packages that ship (bench, e2e and resilience are test code through and through). */
const PRODUCT = '^(contracts|observability|eventstore|projections|workers|command-api|web|cli)/src/';

/** One rule per capability: it imports nothing of a capability above it, nor the app's root files. */
const capabilityDirection = CAPABILITIES.map((capability, index) => ({
  name: `capability-direction-${capability}`,
  comment: `command-api/src/${capability} may import only platform and the capabilities below it (${CAPABILITIES.slice(0, index).join(', ') || 'none'}).`,
  severity: 'error',
  from: { path: `${API}${capability}/` },
  to: {
    path: `${API}(${[...CAPABILITIES.slice(index + 1)].join('|')})/|${API}[^/]+\\.ts$`,
  },
}));

/** Which packages each package may import (their sources, their build output, or their package name). */
const packageRules = [
  { pkg: 'contracts', may: [] },
  { pkg: 'observability', may: [] },
  { pkg: 'eventstore', may: ['contracts', 'observability'] },
  { pkg: 'projections', may: ['contracts', 'eventstore', 'observability'] },
  { pkg: 'workers', may: ['contracts', 'observability'] },
  { pkg: 'command-api', may: ['contracts', 'eventstore', 'observability'] },
  { pkg: 'web', may: ['contracts'] },
].map(({ pkg, may }) => ({
  name: `package-${pkg}`,
  comment: `${pkg} may import ${may.length ? may.join(', ') : 'no other package of ours'} (design §2).`,
  severity: 'error',
  from: { path: `^${pkg}/src/`, pathNot: testFile },
  to: {
    path: '^(contracts|observability|eventstore|projections|workers|command-api|web|cli|bench|e2e|resilience)/',
    pathNot: [`^${pkg}/`, ...may.map((allowed) => `^${allowed}/`)],
  },
}));

/** web/src: a screen belongs to one audience; what two staff audiences share is console/, what all share is shared/. */
const WEB = '^web/src/';
const webRules = [
  { from: 'borrower', not: ['admin', 'audit', 'console'] },
  { from: 'admin', not: ['borrower', 'audit'] },
  { from: 'audit', not: ['borrower', 'admin'] },
  { from: 'console', not: ['borrower', 'admin', 'audit'] },
  { from: 'shared', not: ['borrower', 'admin', 'audit', 'console'] },
].map(({ from, not }) => ({
  name: `web-${from}`,
  comment: `web/src/${from} imports nothing of ${not.join(', ')}.`,
  severity: 'error',
  from: { path: `${WEB}${from}/` },
  to: { path: `${WEB}(${not.join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-capability',
      comment: "command-api/src/platform is the plumbing every capability stands on: it imports no capability and none of the app's root files.",
      severity: 'error',
      from: { path: `${API}platform/` },
      to: { path: `${API}(?!platform/)` },
    },
    ...capabilityDirection,
    ...packageRules,
    ...webRules,
    {
      name: 'no-tests-in-product-code',
      comment: 'Product code never imports a test or a testing/ helper: they are not built, and what they fake must not reach production.',
      severity: 'error',
      from: { path: PRODUCT, pathNot: testFile },
      to: { path: testFile },
    },
    {
      name: 'no-circular-between-folders',
      comment: 'No two folders of command-api/src import each other both ways (a cycle inside one folder is its own business).',
      severity: 'error',
      from: { path: `${API}([^/]+)/` },
      to: { circular: true, path: `${API}(?!$1/)` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|coverage)/' },
    // Type-only imports count: a type from another capability is as much a dependency as a value.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
