import { token } from '@werkbank/kernel';

/** What this process is: 'server' for API servers, 'worker' for `npm run worker` processes (no HTTP). */
export type ProcessRole = 'server' | 'worker';
export const ProcessRole = token<ProcessRole>('ProcessRole');
