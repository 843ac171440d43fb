import type { PortDescriptor } from '@werkbank/sdk/node';

/** A port of feature items. */
export const featuresPort = (name = 'features'): PortDescriptor => ({ name, content_type: 'feature' });

/** A one-item parameter port, optional when it has a default. */
export const param = (name: string, content_type: string, value?: unknown): PortDescriptor =>
  value === undefined ? { name, content_type } : { name, content_type, is_optional: true, default_value: { value } };
