// One Temporal dev server for the whole run (globalSetup) — on 2 cores a server per file
// would cost more than the tests themselves. Each file takes its own namespace from a pool.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/data/', '/.tools/', '<rootDir>/ui/'],
  // Transpile only (tsc checks types before jest runs). swc, not ts-jest: a clean clone has no
  // transform cache, and swc transpiles the suite's ~750 modules in a fraction of the time.
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 120000,
  maxWorkers: 2,
  cacheDirectory: '<rootDir>/.jest-cache',
};
