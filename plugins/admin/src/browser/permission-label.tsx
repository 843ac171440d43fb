import { useT } from '@werkbank/sdk/browser';

/**
 * A named permission in the reader's language: the plugin's own text for the spec's permissions,
 * else the server's label (`label`, from /api/v2/backend/permissions, which names permissions that
 * plugins add, decision 0041), else the name.
 */
export function PermissionLabel({ name, label }: { name: string; label?: string }) {
  const t = useT('admin');
  return <>{t(`permission.${name}`, { defaultValue: label ?? name })}</>;
}
