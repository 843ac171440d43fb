import { useEffect, useState } from '@werkbank/sdk/react';
import { Button, HTMLTable, InputGroup } from '@werkbank/sdk/ui';
import { ApiClient, NotificationService, useService, useT } from '@werkbank/sdk/browser';
import { TRANSLATION_LANGUAGES, type TranslationRow, type ViewTranslation } from '../common/view-translations';
import { viewLayers, viewPois, type PoiGroup, type ViewLayerGroup } from '../common/view-tree';
import type { View } from '../common/view-types';

const groupNames = (g: ViewLayerGroup | PoiGroup): string[] => [
  g.name,
  ...('layergroups' in g ? g.layergroups.flatMap(groupNames) : g.poigroups.flatMap(groupNames)),
];

/** The texts of a view a visitor reads, to offer as keys: titles, group, layer entry and POI names. */
export function viewTexts(view: Pick<View, 'name' | 'subline' | 'description' | 'layergroup' | 'poigroup'>): string[] {
  const texts = [
    view.name,
    view.subline,
    view.description,
    ...groupNames(view.layergroup),
    ...viewLayers(view.layergroup).map((l) => l.name),
    ...groupNames(view.poigroup),
    ...viewPois(view.poigroup).map((p) => p.name),
  ];
  return [...new Set(texts.map((s) => s.trim()).filter(Boolean))];
}

/**
 * The Translations tab (spec 002 §2, §5; gated by the view translation editor component): a grid of
 * keys × en/de/fr — the saved rows and the view's texts not yet translated; Save keeps the rows with
 * a key and a value ('Failed to save translations: {message}' when it cannot).
 */
export function ViewTranslationsTab({ view, readOnly }: { view: View; readOnly: boolean }) {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const t = useT('views');
  const address = `/api/v2/presenting/view/${view.id}/translations`;
  const [rows, setRows] = useState<TranslationRow[]>();
  const [saving, setSaving] = useState(false);
  const merge = (saved: ViewTranslation[]) => {
    const keys = new Set(saved.map((s) => s.key));
    return [
      ...saved.map((s) => ({ key: s.key, values: { ...s.values } })),
      ...viewTexts(view)
        .filter((k) => !keys.has(k))
        .map((key) => ({ key, values: {} })),
    ];
  };
  useEffect(() => {
    api.get<ViewTranslation[]>(address).then(
      (saved) => setRows(merge(saved)),
      (e: Error) => notifications.error(e.message),
    );
  }, [api, address]);
  if (!rows) return null;
  const set = (i: number, row: TranslationRow) => setRows(rows.map((r, j) => (j === i ? row : r)));
  const save = async () => {
    setSaving(true);
    try {
      setRows(merge(await api.post<ViewTranslation[]>(address, rows)));
      notifications.success(String(t('translations.saved')));
    } catch (e) {
      notifications.error(String(t('translations.failed', { message: (e as Error).message })));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div data-testid="view-translations">
      <HTMLTable compact>
        <thead>
          <tr>
            <th>{t('translations.key')}</th>
            {TRANSLATION_LANGUAGES.map((l) => (
              <th key={l}>{t(`translations.${l}`)}</th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>
                <InputGroup
                  aria-label={String(t('translations.key'))}
                  disabled={readOnly}
                  value={r.key}
                  onValueChange={(key) => set(i, { ...r, key })}
                />
              </td>
              {TRANSLATION_LANGUAGES.map((l) => (
                <td key={l}>
                  <InputGroup
                    aria-label={`${t(`translations.${l}`)}: ${r.key}`}
                    lang={l}
                    disabled={readOnly}
                    value={String(r.values[l] ?? '')}
                    onValueChange={(v) => set(i, { ...r, values: { ...r.values, [l]: v } })}
                  />
                </td>
              ))}
              <td>
                {!readOnly && (
                  <Button
                    size="small"
                    variant="minimal"
                    icon="trash"
                    aria-label={String(t('translations.remove'))}
                    onClick={() => setRows(rows.filter((_, j) => j !== i))}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {!readOnly && (
        <div className="wb-toolbar">
          <Button icon="add" text={t('translations.add')} onClick={() => setRows([...rows, { key: '', values: {} }])} />
          <Button
            intent="primary"
            icon="floppy-disk"
            text={t('translations.save')}
            loading={saving}
            data-testid="view-translations-save"
            onClick={() => void save()}
          />
        </div>
      )}
    </div>
  );
}
