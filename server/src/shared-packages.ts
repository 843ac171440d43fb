/**
 * Packages a plugin always gets from the Werkbank (one copy each, STYLE §14): the SDK and the
 * libraries it hands on. Used by the node resolve hook and the browser build alike.
 */
export const SHARED_PACKAGES = [
  '@werkbank/sdk',
  '@werkbank/kernel',
  'react',
  'react-dom',
  'mobx',
  'mobx-react-lite',
  'inversify',
  'typeorm',
  'i18next',
  'react-i18next',
  '@blueprintjs/*',
  'rete',
  'rete-*',
  'styled-components',
];
