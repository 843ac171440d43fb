import { useT } from '@werkbank/sdk/browser';

/** A named permission in the reader's language; one a plugin added without a text shows its name. */
export function PermissionLabel({ name }: { name: string }) {
  const t = useT('admin');
  return <>{t(`permission.${name}`, { defaultValue: name })}</>;
}
