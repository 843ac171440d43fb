import type { i18n } from 'i18next';
import type { ResourceDefinition } from '@werkbank/sdk/node';

/**
 * A named permission as the user and group editors show it (decision 0041): the server's text for
 * the spec's permissions (`permission_labels.*`), else the kind's `objectPermissionLabels`, else
 * "<kind label>: <access>" ("Layer: read", "Layer: lesen"), else the name.
 */
export function permissionLabel(i18nInstance: i18n, kinds: ResourceDefinition[], name: string, lang: 'de' | 'en'): string {
  const t = i18nInstance.getFixedT(lang, 'server');
  const own = `permission_labels.${name}`;
  if (i18nInstance.exists(own, { ns: 'server' })) return String(t(own));
  for (const def of kinds) {
    const access = (['read', 'write', 'execute'] as const).find((a) => def.objectPermissions?.[a] === name);
    if (!access) continue;
    const declared = def.objectPermissionLabels?.[access];
    const text = declared?.[lang] ?? declared?.en;
    if (text) return text;
    // "den Layer" → "Layer": the feed's label carries the accusative article.
    const noun = (def.label?.[lang] ?? def.label?.en ?? def.kind).replace(/^(den|die|das|der) /, '');
    const object = noun.charAt(0).toUpperCase() + noun.slice(1);
    return String(t('permission_labels.generic', { object, access: t(`permission_labels.access_${access}`) }));
  }
  return name;
}
