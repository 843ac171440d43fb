import { definePlugin } from '@werkbank/sdk/node';

export default definePlugin(() => {});
