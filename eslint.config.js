import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'node_modules/', 'bench/out/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // The shared layers sit below the features: a feature builds on them, never the other way round,
    // so any feature (and the shops to come) can use them without pulling another feature's screens,
    // queries or chunk along. src/app may import features: it is the route table.
    files: ['src/{ui,lib,data,wallet,api,i18n}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**'],
              message:
                'src/ui, src/lib, src/data, src/wallet, src/api and src/i18n are shared layers below the features and must not import from src/features/. Move the piece that is shared down into a shared layer (pure helpers into src/lib), or move the component that needs the feature into src/features/<area>/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Every statement is awaited now (issue 34): a promise left floating is a write that may not have
    // happened yet when the next line reads, or a failure nobody hears of. Type-aware, so on the Node side.
    files: ['server/**/*.ts', 'tests/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.node.json', tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: { ...globals.node } } },
)
