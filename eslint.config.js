import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import werkbank from './scripts/eslint-werkbank-plugin.js';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.tmp/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-namespace': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name=/^(it|describe)$/][callee.property.name=/^(only|skip)$/]", message: 'No focused or skipped tests.' },
      ],
    },
  },
  {
    files: ['plugins/**/*.{ts,tsx}', 'examples/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@werkbank/kernel*', '@werkbank/server*', '**/kernel/**', '**/server/**'], message: 'Plugins import only @werkbank/sdk.' },
            { regex: '^(react|react-dom(/.*)?|mobx.*|inversify|@blueprintjs/.*|typeorm|i18next|react-i18next|rete(-.*)?|styled-components)$', message: 'Plugins get shared libraries through @werkbank/sdk (/ui, /react, /browser, /node).' },
          ],
        },
      ],
    },
  },
  {
    // The plugin boundary (decision 0024): other plugins only through their API, common code
    // without either side's run-time code; files past 400 lines ask to be split (STYLE §11).
    plugins: { werkbank },
    rules: {
      'werkbank/common-imports': 'error',
      'max-lines': ['warn', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['plugins/**/*.{ts,tsx}', 'examples/**/*.{ts,tsx}'],
    rules: { 'werkbank/plugin-imports': 'error' },
  },
  {
    files: ['plugins/**/*.{ts,tsx}', 'examples/**/*.{ts,tsx}'],
    ignores: ['**/*.spec.{ts,tsx}', '**/test/**', '**/*-test-*.{ts,tsx}', '**/*test-kit*.{ts,tsx}', '**/*-fixtures*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@werkbank/testing*'], message: 'Only tests use @werkbank/testing.' }] },
      ],
    },
  },
);
