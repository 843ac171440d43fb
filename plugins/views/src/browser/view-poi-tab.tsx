import { useState } from '@werkbank/sdk/react';
import { Button, Callout, Checkbox, FormGroup, HTMLSelect, HTMLTable, InputGroup, NumericInput } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import {
  GROUND_REFS,
  newPoi,
  newPoiGroup,
  viewLayers,
  type CameraPosition,
  type Poi,
  type PoiGroup,
  type ViewLayerGroup,
} from '../common/view-tree';

type Place = { group: number[]; poi?: number };

const groupAt = (root: PoiGroup, path: readonly number[]) => path.reduce((g, i) => g.poigroups[i], root);

function withGroup(root: PoiGroup, path: readonly number[], change: (g: PoiGroup) => PoiGroup): PoiGroup {
  if (!path.length) return change(root);
  const [head, ...rest] = path;
  return { ...root, poigroups: root.poigroups.map((g, i) => (i === head ? withGroup(g, rest, change) : g)) };
}

const NUMBERS: Array<{ key: keyof Poi; min: number; max: number }> = [
  { key: 'lat', min: -90, max: 90 },
  { key: 'lon', min: -180, max: 180 },
  { key: 'height', min: -12000, max: 1e7 },
  { key: 'elevation', min: 0, max: 1e8 },
  { key: 'yaw', min: -360, max: 360 },
  { key: 'pitch', min: -90, max: 90 },
  { key: 'roll', min: -360, max: 360 },
  { key: 'fly_duration', min: 0, max: 600 },
  { key: 'wait_duration', min: 0, max: 3600 },
];

/** The POI detail editor (spec 002 §5), with Back. */
function PoiDetail(props: {
  poi: Poi;
  layers: ViewLayerGroup;
  readOnly: boolean;
  previewCamera: CameraPosition | null;
  onChange(p: Partial<Poi>): void;
  onBack(): void;
}) {
  const t = useT('views');
  const { poi, readOnly } = props;
  const switchOf = (id: string) => poi.layers.find((l) => l.id === id);
  const setSwitch = (id: string, v: string) =>
    props.onChange({ layers: [...poi.layers.filter((l) => l.id !== id), ...(v === '' ? [] : [{ id, visible: v === 'show' }])] });
  return (
    <div className="wb-view-detail" data-testid="view-poi-detail">
      <Button icon="arrow-left" text={t('tree.back')} onClick={props.onBack} />
      <FormGroup label={t('poi.name')} labelFor="view-poi-name">
        <InputGroup id="view-poi-name" disabled={readOnly} value={poi.name} onValueChange={(name) => props.onChange({ name })} />
      </FormGroup>
      {NUMBERS.map((f) => (
        <FormGroup key={f.key} label={t(`poi.${f.key}`)} labelFor={`view-poi-${f.key}`}>
          <NumericInput
            id={`view-poi-${f.key}`}
            disabled={readOnly}
            min={f.min}
            max={f.max}
            value={poi[f.key] as number}
            onValueChange={(v) => Number.isFinite(v) && props.onChange({ [f.key]: v })}
          />
        </FormGroup>
      ))}
      {!readOnly && props.previewCamera && (
        <Button
          icon="map-marker"
          text={t('poi.from_preview')}
          onClick={() => props.onChange({ lon: props.previewCamera!.lon, lat: props.previewCamera!.lat })}
        />
      )}
      <FormGroup label={t('poi.ground_ref')} labelFor="view-poi-ground">
        <HTMLSelect
          id="view-poi-ground"
          disabled={readOnly}
          value={poi.ground_ref}
          options={GROUND_REFS.map((g) => ({ value: g, label: String(t(`poi.ground_${g}`)) }))}
          onChange={(e) => props.onChange({ ground_ref: e.currentTarget.value as Poi['ground_ref'] })}
        />
      </FormGroup>
      <fieldset className="wb-fieldset">
        <legend>{t('poi.layers')}</legend>
        {viewLayers(props.layers).map((l) => {
          const s = switchOf(l.id);
          return (
            <FormGroup key={l.id} inline label={l.name || l.layer} labelFor={`view-poi-layer-${l.id}`}>
              <HTMLSelect
                id={`view-poi-layer-${l.id}`}
                disabled={readOnly}
                value={s ? (s.visible ? 'show' : 'hide') : ''}
                options={[
                  { value: '', label: String(t('poi.layer_unchanged')) },
                  { value: 'show', label: String(t('poi.layer_show')) },
                  { value: 'hide', label: String(t('poi.layer_hide')) },
                ]}
                onChange={(e) => setSwitch(l.id, e.currentTarget.value)}
              />
            </FormGroup>
          );
        })}
      </fieldset>
      <FormGroup label={t('poi.vistacode')} labelFor="view-poi-vistacode">
        <InputGroup
          id="view-poi-vistacode"
          disabled={readOnly}
          value={poi.vistacode}
          onValueChange={(vistacode) => props.onChange({ vistacode })}
        />
      </FormGroup>
    </div>
  );
}

/**
 * The POI tab (spec 002 §5): a table of POIs and groups — POIs with name and visible, groups also
 * with initially expanded and show as tour; Add POI (at the preview's camera when there is one),
 * Add Group; an edit arrow opens the POI detail editor.
 */
export function ViewPoiTab(props: {
  tree: PoiGroup;
  layers: ViewLayerGroup;
  readOnly: boolean;
  previewCamera: CameraPosition | null;
  onChange(tree: PoiGroup): void;
}) {
  const t = useT('views');
  const [editing, setEditing] = useState<Place>();
  const { tree, readOnly, onChange } = props;
  if (editing?.poi !== undefined) {
    const poi = groupAt(tree, editing.group).pois[editing.poi];
    if (poi)
      return (
        <PoiDetail
          poi={poi}
          layers={props.layers}
          readOnly={readOnly}
          previewCamera={props.previewCamera}
          onBack={() => setEditing(undefined)}
          onChange={(p) =>
            onChange(
              withGroup(tree, editing.group, (g) => ({
                ...g,
                pois: g.pois.map((x, i) => (i === editing.poi ? { ...x, ...p } : x)),
              })),
            )
          }
        />
      );
  }
  const rows: Array<{ place: Place; depth: number; poi?: Poi; group?: PoiGroup }> = [];
  const walk = (g: PoiGroup, path: number[], depth: number) => {
    g.pois.forEach((poi, i) => rows.push({ place: { group: path, poi: i }, depth, poi }));
    g.poigroups.forEach((c, i) => {
      rows.push({ place: { group: [...path, i] }, depth, group: c });
      walk(c, [...path, i], depth + 1);
    });
  };
  walk(tree, [], 0);
  const at = props.previewCamera ?? { lon: 10.45, lat: 51.16 };
  const change = (place: Place, p: Partial<Poi> & Partial<PoiGroup>) =>
    onChange(
      place.poi !== undefined
        ? withGroup(tree, place.group, (g) => ({ ...g, pois: g.pois.map((x, i) => (i === place.poi ? { ...x, ...p } : x)) }))
        : withGroup(tree, place.group, (g) => ({ ...g, ...p })),
    );
  const remove = (place: Place) =>
    onChange(
      place.poi !== undefined
        ? withGroup(tree, place.group, (g) => ({ ...g, pois: g.pois.filter((_, i) => i !== place.poi) }))
        : withGroup(tree, place.group.slice(0, -1), (g) => ({
            ...g,
            poigroups: g.poigroups.filter((_, i) => i !== place.group[place.group.length - 1]),
          })),
    );
  const check = (place: Place, key: 'visible' | 'init_expanded' | 'is_tour', value: boolean, name: string) => (
    <Checkbox
      aria-label={`${t(`poi.${key}`)}: ${name}`}
      disabled={readOnly}
      checked={value}
      onChange={(e) => change(place, { [key]: e.currentTarget.checked })}
    />
  );
  return (
    <div data-testid="view-poi">
      {!readOnly && (
        <div className="wb-toolbar">
          <Button
            icon="map-marker"
            text={t('poi.add_poi')}
            data-testid="view-add-poi"
            onClick={() => onChange({ ...tree, pois: [...tree.pois, newPoi(at.lon, at.lat, String(t('poi.new_poi')))] })}
          />
          <Button
            icon="folder-new"
            text={t('poi.add_group')}
            data-testid="view-add-poi-group"
            onClick={() => onChange({ ...tree, poigroups: [...tree.poigroups, newPoiGroup(String(t('poi.new_group')))] })}
          />
        </div>
      )}
      {!rows.length ? (
        <Callout>{t('poi.empty')}</Callout>
      ) : (
        <HTMLTable compact>
          <thead>
            <tr>
              <th>{t('poi.name')}</th>
              <th>{t('poi.visible')}</th>
              <th>{t('poi.init_expanded')}</th>
              <th>{t('poi.is_tour')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const name = (r.poi ?? r.group)!.name;
              return (
                <tr key={i} data-testid={`view-poi-row-${i}`}>
                  <td style={{ paddingLeft: 8 + r.depth * 25 }}>
                    <InputGroup
                      aria-label={String(t('poi.name'))}
                      small
                      disabled={readOnly}
                      value={name}
                      onValueChange={(v) => change(r.place, { name: v })}
                    />
                  </td>
                  <td>{check(r.place, 'visible', (r.poi ?? r.group)!.visible, name)}</td>
                  <td>{r.group && check(r.place, 'init_expanded', r.group.init_expanded, name)}</td>
                  <td>{r.group && check(r.place, 'is_tour', r.group.is_tour, name)}</td>
                  <td>
                    {r.group && !readOnly && (
                      <Button
                        size="small"
                        variant="minimal"
                        icon="map-marker"
                        aria-label={String(t('poi.add_poi'))}
                        onClick={() =>
                          onChange(
                            withGroup(tree, r.place.group, (g) => ({
                              ...g,
                              pois: [...g.pois, newPoi(at.lon, at.lat, String(t('poi.new_poi')))],
                            })),
                          )
                        }
                      />
                    )}
                    {r.poi && (
                      <Button
                        size="small"
                        variant="minimal"
                        icon="arrow-right"
                        aria-label={String(t('tree.edit', { name }))}
                        data-testid={`view-poi-edit-${i}`}
                        onClick={() => setEditing(r.place)}
                      />
                    )}
                    {!readOnly && (
                      <Button
                        size="small"
                        variant="minimal"
                        icon="trash"
                        aria-label={String(t('poi.remove', { name }))}
                        onClick={() => remove(r.place)}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}
