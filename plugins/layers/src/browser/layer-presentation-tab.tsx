import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { Button, ButtonGroup, Callout, FormGroup, InputGroup, Switch, Tab, Tabs } from '@werkbank/sdk/ui';
import { ApiClient, MapView, useService, useT, type ListResponse } from '@werkbank/sdk/browser';
import type { MapFeature } from '@werkbank/sdk';
import { LAYER_ATTRIBUTES_PATH, type Layer, type LayerAttribute } from '../common/layers-api';
import {
  addRule,
  defaultStyle,
  geometryKind,
  moveRule,
  parseInteger,
  removeRule,
  scaleToZoom,
  type GeometryKind,
  type LayerStyle,
  type StyleRule,
} from '../common/style-model';
import { LegendSwatch } from './style-legend';
import { mapStyler } from './style-map';
import { LabelFields, NumberField, SymbolFields } from './style-fields';
import { FilterFields } from './style-filter-fields';
import { StyleSourcePanel, type LinkedStyle } from './style-source';
import { usePreviewImagery } from './use-preview-imagery';

/** At most this many datums per pile are previewed. */
const PREVIEW_LIMIT = 500;

/** The layer's features for the preview: each pile's datums (the first PREVIEW_LIMIT) with a feature. */
function usePreviewFeatures(layer: Layer): MapFeature[] {
  const api = useService(ApiClient);
  const [features, setFeatures] = useState<MapFeature[]>([]);
  const piles = layer.layerpiles.map((p) => p.id).join(',');
  useEffect(() => {
    let live = true;
    const ids = layer.layerpiles.map((p) => p.id).filter((id) => typeof id === 'number');
    void Promise.all(
      ids.map((id) =>
        api.get<ListResponse<Record<string, unknown>>>(`/api/v1/datum/by-pile/${id}/`, { query: { limit: PREVIEW_LIMIT } }).then(
          (r) => r.objects,
          () => [],
        ),
      ),
    ).then((lists) => {
      if (!live) return;
      setFeatures(
        lists.flat().flatMap((d) => {
          const f = d.feature as MapFeature | undefined;
          return f && typeof f === 'object' && 'geometry' in f
            ? [{ type: 'Feature' as const, id: d.id as number, geometry: f.geometry, properties: f.properties ?? {} }]
            : [];
        }),
      );
    });
    return () => {
      live = false;
    };
  }, [api, piles]);
  return features;
}

/**
 * The Presentation tab (spec 001 §2.2, §2.8, §3.7, §5.3): the layer's map style as a list of rules
 * (add copies the base rule's symbol; remove only with more than one; reorder; name), each with the
 * tabs Symbol, Hover, Zoom level, Filter and Labeling; a legend swatch per rule; a live preview on
 * the layer's features through evaluateStyle; SLD import and SLD / MapLibre downloads.
 */
export function LayerPresentationTab({
  layer,
  readOnly: tabReadOnly,
  onChange: onOwnChange,
  source,
}: {
  layer: Layer;
  readOnly: boolean;
  /** Changes the layer's own style. */
  onChange(style: LayerStyle): void;
  /**
   * The style source (decision 0068): the linked style datum as the editor holds it, how its
   * edits, the link and "Save as style datum" reach the editor. Without it, only the own style.
   */
  source?: {
    linked: LinkedStyle | undefined;
    onLinkedChange(style: LayerStyle): void;
    onLink(datum: string | null): void;
    onSavedAs(layer: Layer | undefined, message: string): void;
  };
}) {
  const t = useT('layers');
  const api = useService(ApiClient);
  const linked = layer.style_datum ? source?.linked : undefined;
  const usingDatum = linked?.status === 'ready';
  // A linked style is edited in place of the own one; read-only while it loads or without write access to its depot.
  const readOnly = tabReadOnly || linked?.status === 'loading' || (usingDatum && !linked.writable);
  const onChange = usingDatum && source ? source.onLinkedChange : onOwnChange;
  const shown = usingDatum ? linked.style : layer.style;
  const style = shown?.rules?.length ? shown : defaultStyle();
  const [open, setOpen] = useState(0);
  const [attributes, setAttributes] = useState<LayerAttribute[]>([]);
  const [message, setMessage] = useState<{ intent: 'danger' | 'success'; text: string }>();
  const [scale, setScale] = useState<number>();
  const features = usePreviewFeatures(layer);
  // external_map and mapproxy layers: their WMS/WMTS piles as imagery (decision 0067).
  const imagery = usePreviewImagery(layer);
  const kind: GeometryKind = features.map((f) => geometryKind(f.geometry as never)).find((k) => !!k) ?? 'polygon';
  const styler = useMemo(() => mapStyler(style), [JSON.stringify(style)]);
  useEffect(() => {
    api.get<ListResponse<LayerAttribute>>(LAYER_ATTRIBUTES_PATH, { query: { layer: layer.id } }).then(
      (r) => setAttributes(r.objects),
      () => setAttributes([]),
    );
  }, [api, layer.id]);

  const index = Math.min(open, style.rules.length - 1);
  const rule = style.rules[index];
  const setRule = (p: Partial<StyleRule>) => onChange({ rules: style.rules.map((r, i) => (i === index ? { ...r, ...p } : r)) });
  const ruleName = (r: StyleRule, i: number) => r.name || String(t('style.rule_default_name', { n: i + 1 }));

  const importSld = async (file: File) => {
    setMessage(undefined);
    // geostyler's SLD parser is loaded only when an SLD is imported.
    const { SldImportError, styleFromSld } = await import('../common/style-geostyler');
    try {
      const imported = await styleFromSld(await file.text());
      onChange(imported);
      setOpen(0);
      setMessage({ intent: 'success', text: String(t('style.imported', { count: imported.rules.length })) });
    } catch (e) {
      setMessage({
        intent: 'danger',
        text: String(e instanceof SldImportError ? t(e.key.replace(/^layers:/, ''), e.params) : t('errors.sld_invalid')),
      });
    }
  };

  return (
    <div data-testid="layer-presentation" className="wb-style-editor">
      <p className="wb-muted">{t('style.intro')}</p>
      {source && (
        <StyleSourcePanel
          layer={layer}
          linked={linked}
          style={style}
          readOnly={tabReadOnly}
          onLink={source.onLink}
          onSavedAs={(saved, text) => {
            setMessage({ intent: 'success', text });
            source.onSavedAs(saved, text);
          }}
        />
      )}
      {message && (
        <Callout intent={message.intent} role={message.intent === 'danger' ? 'alert' : 'status'} data-testid="style-message">
          {message.text}
        </Callout>
      )}
      <div className="wb-style-columns" style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
        <section aria-labelledby="style-rules-title" style={{ minWidth: 240 }}>
          <h3 id="style-rules-title">{t('style.rules')}</h3>
          <ol className="wb-style-rules" data-testid="style-rules" style={{ listStyle: 'none', padding: 0 }}>
            {style.rules.map((r, i) => (
              <li key={i} data-testid="style-rule" style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
                <LegendSwatch symbol={r.symbol} kind={kind} label={String(t('style.legend_of', { name: ruleName(r, i) }))} />
                <Button
                  minimal
                  active={i === index}
                  aria-current={i === index ? 'true' : undefined}
                  text={ruleName(r, i)}
                  onClick={() => setOpen(i)}
                />
                {!readOnly && (
                  <ButtonGroup minimal>
                    <Button
                      icon="arrow-up"
                      aria-label={`${t('style.move_up')}: ${ruleName(r, i)}`}
                      disabled={i === 0}
                      onClick={() => (onChange(moveRule(style, i, -1)), setOpen(i - 1))}
                    />
                    <Button
                      icon="arrow-down"
                      aria-label={`${t('style.move_down')}: ${ruleName(r, i)}`}
                      disabled={i === style.rules.length - 1}
                      onClick={() => (onChange(moveRule(style, i, 1)), setOpen(i + 1))}
                    />
                    <Button
                      icon="trash"
                      aria-label={`${t('style.remove_rule')}: ${ruleName(r, i)}`}
                      data-testid="style-remove-rule"
                      disabled={style.rules.length <= 1}
                      onClick={() => {
                        const next = removeRule(style, i);
                        onChange(next.style);
                        setOpen(next.open);
                      }}
                    />
                  </ButtonGroup>
                )}
              </li>
            ))}
          </ol>
          {!readOnly && (
            <Button
              icon="add"
              text={t('style.add_rule')}
              data-testid="style-add-rule"
              onClick={() => {
                onChange(addRule(style));
                setOpen(style.rules.length);
              }}
            />
          )}
          <div className="wb-style-files" style={{ marginTop: 12, display: 'flex', flexDirection: 'column', gap: 4 }}>
            <a href={`${layer.resource_uri}style.sld`} download data-testid="style-export-sld">
              {t('style.export_sld')}
            </a>
            <a href={`${layer.resource_uri}style.json`} download data-testid="style-export-maplibre">
              {t('style.export_maplibre')}
            </a>
            <span className="wb-muted">{t('style.export_saved_only')}</span>
            {!readOnly && (
              <FormGroup label={t('style.import_sld')} labelFor="style-import-sld">
                <input
                  id="style-import-sld"
                  type="file"
                  accept=".sld,.xml,application/xml,text/xml"
                  data-testid="style-import-sld"
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    if (file) void importSld(file);
                    e.target.value = '';
                  }}
                />
              </FormGroup>
            )}
          </div>
        </section>
        <section aria-labelledby="style-rule-title" style={{ flex: '1 1 320px' }} data-testid="style-rule-editor">
          <h3 id="style-rule-title">{ruleName(rule, index)}</h3>
          <FormGroup label={t('style.rule_name')} labelFor="style-rule-name">
            <InputGroup
              id="style-rule-name"
              disabled={readOnly}
              value={rule.name ?? ''}
              onValueChange={(name) => setRule({ name })}
            />
          </FormGroup>
          <Tabs id="style-rule-tabs" renderActiveTabPanelOnly key={index}>
            <Tab
              id="symbol"
              title={t('style.tab_symbol')}
              panel={
                <SymbolFields
                  symbol={rule.symbol}
                  prefix="style-symbol"
                  hover={false}
                  disabled={readOnly}
                  onChange={(symbol) => setRule({ symbol })}
                />
              }
            />
            <Tab
              id="hover"
              title={t('style.tab_hover')}
              panel={
                <div>
                  <Switch
                    id="style-hover-enabled"
                    label={String(t('style.hover_enabled'))}
                    disabled={readOnly}
                    checked={!!rule.hover_enabled}
                    onChange={(e) =>
                      setRule({
                        hover_enabled: e.currentTarget.checked,
                        hover_symbol:
                          rule.hover_symbol ?? (e.currentTarget.checked ? { ...rule.symbol, contour_type: 'feature' } : null),
                      })
                    }
                  />
                  {rule.hover_enabled && rule.hover_symbol ? (
                    <SymbolFields
                      symbol={rule.hover_symbol}
                      prefix="style-hover"
                      hover
                      disabled={readOnly}
                      onChange={(hover_symbol) => setRule({ hover_symbol })}
                    />
                  ) : (
                    <p className="wb-muted">{t('style.hover_off')}</p>
                  )}
                </div>
              }
            />
            <Tab
              id="zoom"
              title={t('style.tab_zoom')}
              panel={
                <div>
                  {(['min_scale_denominator', 'max_scale_denominator'] as const).map((key) => (
                    <NumberField
                      key={key}
                      id={`style-${key}`}
                      label={t(key === 'min_scale_denominator' ? 'style.min_scale' : 'style.max_scale')}
                      disabled={readOnly}
                      value={rule[key]}
                      parse={parseInteger}
                      onChange={(v) => setRule({ [key]: v })}
                      helper={
                        typeof rule[key] === 'number' && rule[key]! > 0
                          ? t('style.zoom_of', { zoom: scaleToZoom(rule[key]!).toFixed(1) })
                          : t('style.scale_help')
                      }
                    />
                  ))}
                </div>
              }
            />
            <Tab
              id="filter"
              title={t('style.tab_filter')}
              panel={
                <FilterFields
                  rule={rule}
                  attributes={attributes}
                  disabled={readOnly}
                  onChange={(filter) => setRule({ filter })}
                />
              }
            />
            <Tab
              id="label"
              title={t('style.tab_label')}
              panel={
                <LabelFields
                  symbol={rule.symbol}
                  attributes={attributes}
                  disabled={readOnly}
                  onChange={(symbol) => setRule({ symbol })}
                />
              }
            />
          </Tabs>
        </section>
      </div>
      <section aria-labelledby="style-preview-title" data-testid="style-preview">
        <h3 id="style-preview-title">{t('style.preview')}</h3>
        {!features.length && !imagery.length ? (
          <Callout>{t('style.preview_empty')}</Callout>
        ) : (
          <>
            <MapView
              features={features}
              imagery={imagery}
              modeKey="layer_preview"
              styleFeature={styler}
              onScaleChange={setScale}
              label={String(t('style.preview_map'))}
              height={360}
            />
            {scale !== undefined && (
              <p className="wb-muted" role="status">
                {t('style.preview_scale', {
                  scale: scale.toLocaleString(),
                  zoom: scaleToZoom(scale).toFixed(1),
                  count: features.length,
                })}
              </p>
            )}
          </>
        )}
        <h4>{t('style.legend')}</h4>
        <ul data-testid="style-legend" style={{ listStyle: 'none', padding: 0 }}>
          {style.rules.map((r, i) => (
            <li key={i} style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
              <LegendSwatch symbol={r.symbol} kind={kind} label={String(t('style.legend_of', { name: ruleName(r, i) }))} />
              <span>{ruleName(r, i)}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
