// Nx plugin: infers build, typecheck, test and lint targets for every workspace package
// (apps/*, libs/*, tools/* with a package.json), so `nx run-many`, `nx affected` and the task
// cache work without a project.json per package. Targets are plain commands run from the root:
//   build      tsc -b of the package (the CLI also bundles itself and writes the JSON Schemas), outputs its dist/
//   typecheck  the package's sources and tests against the whole workspace (typecheck-project.mjs)
//   test       vitest on the package's src/ (tests run against sibling sources, see vitest.config.ts)
//   lint       eslint on the package, with the workspace's module boundaries
// A package adds to or overrides these in the "nx" field of its package.json.
import { dirname } from 'node:path';

const build = (root) => ({
  command: root === 'apps/cli' ? 'tsc -b apps/cli/tsconfig.json && node scripts/bundle-cli.mjs && node scripts/write-schemas.mjs' : `tsc -b ${root}/tsconfig.json`,
  dependsOn: ['^build'],
  inputs: ['production', '^production', ...(root === 'apps/cli' ? ['{workspaceRoot}/scripts/bundle-cli.mjs', '{workspaceRoot}/scripts/write-schemas.mjs'] : [])],
  outputs: ['{projectRoot}/dist', ...(root === 'apps/cli' ? ['{projectRoot}/schemas'] : [])],
  cache: true,
});

const typecheck = (root) => ({
  command: `node scripts/nx/typecheck-project.mjs ${root}`,
  inputs: ['default', '^production', '{workspaceRoot}/tsconfig.typecheck.json', '{workspaceRoot}/scripts/nx/typecheck-project.mjs', { externalDependencies: ['typescript'] }],
  cache: true,
});

const test = (root) => ({
  // The pre-test build of vitest.global-setup.ts is replaced by the dependsOn below.
  command: `vitest run --passWithNoTests ${root}/src/`,
  options: { env: { PARLEY_SKIP_BUILD: '1' } },
  dependsOn: ['build'],
  inputs: ['default', '^production', '{workspaceRoot}/vitest.config.ts', { env: 'PARLEY_TEST_DATABASE_URL' }, { externalDependencies: ['vitest'] }],
  cache: true,
});

const lint = () => ({
  command: 'eslint {projectRoot}',
  inputs: ['default', '{workspaceRoot}/eslint.config.mjs', { externalDependencies: ['eslint', 'typescript-eslint'] }],
  cache: true,
});

export const createNodesV2 = [
  '{apps,libs,tools}/*/package.json',
  (files) =>
    files.map((file) => {
      const root = dirname(file);
      return [file, { projects: { [root]: { targets: { build: build(root), typecheck: typecheck(root), test: test(root), lint: lint(root) } } } }];
    }),
];
