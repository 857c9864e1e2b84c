// Tests run in jest's ESM mode (the generated Prisma client uses import.meta) and
// are transformed by @swc/jest. Workspace packages resolve to their sources, so
// tests need no build. The dashboard's tests (services/dashboard/tests: browser tests
// in Debian's Chromium, the API types' drift, the bundle budget) are matched like any
// other; its src/ is browser code that Vite builds (docs/dashboard.md).
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
  },
  globalSetup: '<rootDir>/jest.global-setup.mjs',
  testTimeout: 30000,
};
