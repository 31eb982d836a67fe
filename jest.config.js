// One Temporal dev server for the whole run (globalSetup) — on 2 cores a server per file
// would cost more than the tests themselves. Each file takes its own namespace from a pool.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/data/', '/.tools/', '<rootDir>/ui/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 120000,
  maxWorkers: 2,
  cacheDirectory: '<rootDir>/.jest-cache',
};
