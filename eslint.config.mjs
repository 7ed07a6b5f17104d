import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

// Terminal presentation (Ink, React, progress bars) belongs to apps/: libraries return data and text.
const presentationPackages = ['ink', 'ink-*', 'react', 'react-*', 'cli-progress'];

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '.parley/**', '**/bin/**', 'examples/**', '.nx/**', '**/src/generated/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      // Who may import whom (docs/architecture.md, "Layers"). Every project carries one scope: tag
      // (lib, app, ui, tool) and one type: tag (its layer); an import must satisfy the constraints
      // of both. Libraries never import apps, tools or UI code, and a layer imports only the layers
      // below it: util <- domain <- data <- feature <- app / ui. The local fakes are test servers
      // that tests in any project start.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: ['@parley/fake-llm', '@parley/fake-langfuse'],
          // Imported statically by modules the CLI itself loads on demand (reporters, output tables),
          // and dynamically by command modules, so that registering every command for `parley --help`
          // loads neither: the laziness is per module, finer than this rule's per-project view.
          // validate-suite.ts is such a module: `parley validate` loads it when it runs; so are
          // calibrate-report.ts and calibrate-suite.ts, loaded by `parley calibrate` subcommands.
          checkDynamicDependenciesExceptions: ['@parley/config', '@parley/reports', '@parley/runner', '@parley/redaction', '@parley/calibration', '@parley/html-report', '@parley/store'],
          depConstraints: [
            { sourceTag: 'scope:lib', onlyDependOnLibsWithTags: ['scope:lib'], bannedExternalImports: presentationPackages },
            { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:lib', 'scope:ui'] },
            // The Ink app: loaded by the CLI's `parley tui` only, itself a view over the libraries.
            { sourceTag: 'scope:ui', onlyDependOnLibsWithTags: ['scope:lib'] },
            { sourceTag: 'scope:tool', onlyDependOnLibsWithTags: ['scope:lib', 'scope:tool'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:util', 'type:domain'] },
            { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:util', 'type:domain', 'type:data'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:util', 'type:domain', 'type:data', 'type:feature'] },
            { sourceTag: 'type:ui', onlyDependOnLibsWithTags: ['type:util', 'type:domain', 'type:data', 'type:feature'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:util', 'type:domain', 'type:data', 'type:feature', 'type:ui'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:util', 'type:domain', 'type:data', 'type:feature', 'type:tool'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // `import { z } from 'zod'` keeps all of zod in the CLI bundle (every locale: ~450 kB that
      // `parley validate` loaded); the namespace import lets the bundler keep what is used (~105 kB).
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message: "use `import * as z from 'zod'`: the named `z` keeps all of zod in the bundle",
        },
      ],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
