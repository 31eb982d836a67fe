// One Temporal dev server for the whole run (globalSetup) — on 2 cores a server per file
// would cost more than the tests themselves. Each file takes its own namespace from a pool.
// Both projects name the same globalSetup, and jest runs a setup module once however many
// projects name it.
const project = {
  testEnvironment: 'node',
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
};

/**
 * The purchase safety tests (exact options, three gates, fence, overlays, challenges, stale
 * trees, a kill at each step) run a second time with every screen read through the on-device
 * agent instead of `uiautomator dump`: one matrix, no copies (device-worker/pdd/purchase/testkit.ts
 * `TEST_CHANNEL`).
 */
const AGENT_CHANNEL_TESTS = [
  '<rootDir>/device-worker/pdd/purchase/*.test.ts',
  '<rootDir>/test/purchase/live.test.ts',
  '<rootDir>/test/purchase/interruptions.test.ts',
  '<rootDir>/test/purchase/stops.test.ts',
  '<rootDir>/test/purchase/crash.test.ts',
];

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 120000,
  // Three workers on two cores: much of the suite waits on real time (Temporal's timers and long
  // polls, a phone's settle, a stopped worker ageing out), and a third file fills those waits. On 2
  // cores the whole suite went from 1,350 s to 1,022 s; even so its processes used 1.5 cores on average.
  maxWorkers: 3,
  cacheDirectory: '<rootDir>/.jest-cache',
  projects: [
    { ...project, testMatch: ['**/*.test.ts'] },
    {
      ...project,
      displayName: 'agent channel',
      testMatch: AGENT_CHANNEL_TESTS,
      setupFiles: ['<rootDir>/test/agent-channel.ts'],
    },
  ],
};
