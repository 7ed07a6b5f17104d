import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '.parley/**', '**/bin/**', 'examples/**', '.nx/**', '**/src/generated/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      // Who may import whom (SPEC §9): libraries never import apps, tools or UI code.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: ['@parley/fake-llm', '@parley/fake-langfuse'],
          depConstraints: [
            { sourceTag: 'scope:lib', onlyDependOnLibsWithTags: ['scope:lib'] },
            { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:lib', 'scope:ui'] },
            // The Ink app: loaded by the CLI's `parley tui` only, itself a view over the libraries.
            { sourceTag: 'scope:ui', onlyDependOnLibsWithTags: ['scope:lib'] },
            { sourceTag: 'scope:tool', onlyDependOnLibsWithTags: ['scope:lib', 'scope:tool'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
