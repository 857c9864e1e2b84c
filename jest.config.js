// Tests run in jest's ESM mode (the generated Prisma client uses import.meta) and
// are transformed by @swc/jest. Workspace packages resolve to their sources, so
// tests need no build. The dashboard's tests (services/dashboard/tests: browser tests
// in Debian's Chromium, the API types' drift, the bundle budget) are matched like any
// other; its src/ is browser code that Vite builds (docs/dashboard.md).
import { createRequire } from 'node:module';

// libphonenumber-js's ES build imports its metadata JSON without an import
// attribute, which jest's ESM mode warns about once per file that loads it; its
// CommonJS build (the same code and metadata) requires it instead.
const fromContracts = createRequire(new URL('./packages/contracts/package.json', import.meta.url));

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  roots: [
    '<rootDir>/packages',
    '<rootDir>/services',
    '<rootDir>/scripts',
    '<rootDir>/infra',
    '<rootDir>/e2e',
  ],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'es6' },
      },
    ],
  },
  moduleNameMapper: {
    '^@leadhook/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^@leadhook/([a-z-]+)/testing$': '<rootDir>/packages/$1/src/testing/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^libphonenumber-js/max$': fromContracts.resolve('libphonenumber-js/max'),
  },
  globalSetup: '<rootDir>/jest.global-setup.mjs',
  // Two files at a time on these 2-core machines: most of a test's time is spent
  // waiting on the processes and servers it started (a whole CI run measured 20.5
  // min this way against about 22 projected with one). The heaviest files are
  // spread through the run (jest.sequencer.mjs).
  maxWorkers: 2,
  testSequencer: '<rootDir>/jest.sequencer.mjs',
  testTimeout: 30000,
};
