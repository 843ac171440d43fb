import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
