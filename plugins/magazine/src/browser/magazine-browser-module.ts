import { definePlugin } from '@werkbank/sdk/browser';

export default definePlugin(() => {});
