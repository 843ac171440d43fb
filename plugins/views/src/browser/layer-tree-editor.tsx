import { useEffect, useState, useNavigate } from '@werkbank/sdk/react';
import {
  AnchorButton,
  Button,
  ButtonGroup,
  Callout,
  Checkbox,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  Menu,
  MenuItem,
  NumericInput,
  Popover,
  Switch,
} from '@werkbank/sdk/ui';
import { ApiClient, ConfigStore, I18nService, useService, useT } from '@werkbank/sdk/browser';
import { GROUP_DISPLAYS, layerIdOf, viewLayers, type ViewLayer, type ViewLayerGroup } from '../common/view-tree';
import {
  addGroup,
  addLayer,
  moveRow,
  placeKey,
  removeRow,
  shiftRow,
  treeRows,
  updateRow,
  type RowPlace,
  type TreeRow,
} from '../common/view-tree-edit';

/** spec 002 §5: the search of Add Layer waits this long after the last key. */
export const LAYER_SEARCH_DEBOUNCE_MS = 200;
const INDENT_PX = 25;

interface LayerHit {
  id: number;
  name: string;
  resource_uri: string;
  type: string;
}

/** Add Layer (spec 002 §5): a search box with its hits, Add and Cancel. */
function AddLayer({ onAdd, onCancel }: { onAdd(layer: LayerHit): void; onCancel(): void }) {
  const api = useService(ApiClient);
  const t = useT('views');
  const [text, setText] = useState('');
  const [hits, setHits] = useState<LayerHit[]>();
  const [chosen, setChosen] = useState<LayerHit>();
  useEffect(() => {
    const timer = setTimeout(() => {
      api.get<{ objects: LayerHit[] }>('/api/v1/layer/', { query: { q: text || undefined, limit: 10, order_by: 'name' } }).then(
        (r) => setHits(r.objects),
        () => setHits([]),
      );
    }, LAYER_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [api, text]);
  return (
    <div className="wb-view-add-layer" data-testid="view-add-layer">
      <FormGroup label={t('tree.search_layers')} labelFor="view-layer-search">
        <InputGroup id="view-layer-search" leftIcon="search" autoFocus value={text} onValueChange={setText} />
      </FormGroup>
      {hits && !hits.length && <Callout>{t('tree.no_layers_found')}</Callout>}
      {!!hits?.length && (
        <ul className="wb-view-layer-hits" aria-label={String(t('tree.search_layers'))}>
          {hits.map((h) => (
            <li key={h.id}>
              <Checkbox
                checked={chosen?.id === h.id}
                label={`${h.name} (${h.type})`}
                onChange={() => setChosen(chosen?.id === h.id ? undefined : h)}
              />
            </li>
          ))}
        </ul>
      )}
      <ButtonGroup>
        <Button
          intent="primary"
          text={t('tree.add')}
          disabled={!chosen}
          data-testid="view-add-layer-confirm"
          onClick={() => chosen && onAdd(chosen)}
        />
        <Button text={t('tree.cancel')} onClick={onCancel} />
      </ButtonGroup>
    </div>
  );
}

/** The detail editor of a layer entry, beside the table, with Back. */
function LayerDetail({
  layer,
  readOnly,
  onChange,
  onBack,
}: {
  layer: ViewLayer;
  readOnly: boolean;
  onChange(p: Partial<ViewLayer>): void;
  onBack(): void;
}) {
  const t = useT('views');
  const flag = (key: keyof ViewLayer, label: string) => (
    <Switch
      key={key}
      label={label}
      disabled={readOnly}
      checked={Boolean(layer[key])}
      onChange={(e) => onChange({ [key]: e.currentTarget.checked })}
    />
  );
  const day = (v: string | null) => (v ? v.slice(0, 10) : '');
  const time = (v: string) => (v ? new Date(`${v}T00:00:00Z`).toISOString() : null);
  return (
    <div className="wb-view-detail" data-testid="view-layer-detail">
      <Button icon="arrow-left" text={t('tree.back')} onClick={onBack} />
      <FormGroup label={t('tree.layer_name')} labelFor="view-layer-name" helperText={t('tree.layer_name_help')}>
        <InputGroup id="view-layer-name" disabled={readOnly} value={layer.name} onValueChange={(name) => onChange({ name })} />
      </FormGroup>
      <FormGroup label={t('tree.opacity')} labelFor="view-layer-opacity">
        <NumericInput
          id="view-layer-opacity"
          disabled={readOnly}
          min={0}
          max={1}
          stepSize={0.1}
          minorStepSize={0.01}
          value={layer.opacity}
          onValueChange={(v) => Number.isFinite(v) && onChange({ opacity: Math.min(1, Math.max(0, v)) })}
        />
      </FormGroup>
      {flag('opacity_editable', String(t('tree.opacity_editable')))}
      {flag('layer_description_visible', String(t('tree.description_visible')))}
      {flag('layer_revision_modified_visible', String(t('tree.revision_visible')))}
      {flag('layer_zoom_to_extent_visible', String(t('tree.zoom_visible')))}
      <FormGroup label={t('tree.time_min')} labelFor="view-layer-time-min">
        <InputGroup
          id="view-layer-time-min"
          type="date"
          disabled={readOnly}
          value={day(layer.time_min)}
          onValueChange={(v) => onChange({ time_min: time(v) })}
        />
      </FormGroup>
      <FormGroup label={t('tree.time_max')} labelFor="view-layer-time-max">
        <InputGroup
          id="view-layer-time-max"
          type="date"
          disabled={readOnly}
          value={day(layer.time_max)}
          onValueChange={(v) => onChange({ time_max: time(v) })}
        />
      </FormGroup>
    </div>
  );
}

/** The detail editor of a group, beside the table, with Back. */
function GroupDetail({
  group,
  readOnly,
  onChange,
  onBack,
}: {
  group: ViewLayerGroup;
  readOnly: boolean;
  onChange(p: Partial<ViewLayerGroup>): void;
  onBack(): void;
}) {
  const t = useT('views');
  return (
    <div className="wb-view-detail" data-testid="view-group-detail">
      <Button icon="arrow-left" text={t('tree.back')} onClick={onBack} />
      <FormGroup label={t('tree.group_name')} labelFor="view-group-name">
        <InputGroup id="view-group-name" disabled={readOnly} value={group.name} onValueChange={(name) => onChange({ name })} />
      </FormGroup>
      <Switch
        label={String(t('tree.visible'))}
        disabled={readOnly}
        checked={group.visible}
        onChange={(e) => onChange({ visible: e.currentTarget.checked })}
      />
      <Switch
        label={String(t('tree.init_visible'))}
        disabled={readOnly}
        checked={group.init_visible}
        onChange={(e) => onChange({ init_visible: e.currentTarget.checked })}
      />
      <Switch
        label={String(t('tree.init_expanded'))}
        disabled={readOnly}
        checked={group.init_expanded}
        onChange={(e) => onChange({ init_expanded: e.currentTarget.checked })}
      />
      <FormGroup label={t('tree.group_display')} labelFor="view-group-display">
        <HTMLSelect
          id="view-group-display"
          disabled={readOnly}
          value={group.group_display}
          options={GROUP_DISPLAYS.map((d) => ({ value: d, label: String(t(`tree.display_${d}`)) }))}
          onChange={(e) => onChange({ group_display: e.currentTarget.value as ViewLayerGroup['group_display'] })}
        />
      </FormGroup>
    </div>
  );
}

/** The names of the tree's layers by address, read once each (entries show them when they have no name of their own). */
function useLayerNames(tree: ViewLayerGroup): Record<string, string> {
  const api = useService(ApiClient);
  const [names, setNames] = useState<Record<string, string>>({});
  const wanted = [...new Set(viewLayers(tree).map((l) => l.layer))].filter((a) => !(a in names));
  const key = wanted.join(',');
  useEffect(() => {
    for (const address of wanted) {
      const id = layerIdOf(address);
      if (id === undefined) continue;
      api.get<{ name: string }>(`/api/v1/layer/${id}/`).then(
        (l) => setNames((n) => ({ ...n, [address]: l.name })),
        () => setNames((n) => ({ ...n, [address]: address })),
      );
    }
  }, [api, key]);
  return names;
}

const COLUMNS = ['visible', 'init_visible', 'init_expanded', 'single', 'queryable', 'exportable'] as const;

/**
 * The layer tree editor (spec 002 §5): a table of layers and nested groups (25 px indent per level,
 * groups collapsible) with the seven columns; rows are reordered by their drag handle (vertical
 * only) or by keyboard with the move buttons; each row has an edit arrow that opens its detail
 * editor beside the table, and a menu (Show Layer, Remove Layer / Remove Group); Add Layer searches
 * the layers, Add Group adds a group.
 */
export function LayerTreeEditor({
  tree,
  readOnly,
  onChange,
}: {
  tree: ViewLayerGroup;
  readOnly: boolean;
  onChange(tree: ViewLayerGroup): void;
}) {
  const t = useT('views');
  const navigate = useNavigate();
  const config = useService(ConfigStore);
  const i18n = useService(I18nService);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<RowPlace>();
  const [adding, setAdding] = useState(false);
  const [dragged, setDragged] = useState<RowPlace>();
  const rows = treeRows(tree, collapsed);
  const layerNames = useLayerNames(tree);
  const nameOf = (r: TreeRow) => (r.layer ? r.layer.name || layerNames[r.layer.layer] || r.layer.layer : r.group!.name);
  const manual = (config.config.documentation[i18n.language] ?? config.config.documentation.en)?.manual;

  if (editing) {
    const row = rows.find((r) => placeKey(r.place) === placeKey(editing));
    if (row?.layer)
      return (
        <LayerDetail
          layer={row.layer}
          readOnly={readOnly}
          onChange={(p) => onChange(updateRow(tree, editing, { layer: p }))}
          onBack={() => setEditing(undefined)}
        />
      );
    if (row?.group)
      return (
        <GroupDetail
          group={row.group}
          readOnly={readOnly}
          onChange={(p) => onChange(updateRow(tree, editing, { group: p }))}
          onBack={() => setEditing(undefined)}
        />
      );
  }
  const cell = (r: TreeRow, key: (typeof COLUMNS)[number]) => {
    const item = (r.layer ?? r.group) as unknown as Record<string, unknown>;
    if (!(key in item)) return <td key={key} />;
    return (
      <td key={key}>
        <Checkbox
          aria-label={`${t(`tree.${key}`)}: ${nameOf(r)}`}
          disabled={readOnly}
          checked={Boolean(item[key])}
          onChange={(e) =>
            onChange(
              updateRow(
                tree,
                r.place,
                r.layer ? { layer: { [key]: e.currentTarget.checked } } : { group: { [key]: e.currentTarget.checked } },
              ),
            )
          }
        />
      </td>
    );
  };
  return (
    <div data-testid="view-layer-tree">
      <div className="wb-toolbar">
        {!readOnly && (
          <Button icon="add" text={t('tree.add_layer')} data-testid="view-add-layer-open" onClick={() => setAdding(true)} />
        )}
        {!readOnly && (
          <Button
            icon="folder-new"
            text={t('tree.add_group')}
            data-testid="view-add-group"
            onClick={() => onChange(addGroup(tree, String(t('tree.new_group'))))}
          />
        )}
        {manual && <AnchorButton variant="minimal" icon="manual" text={t('tree.manual')} href={manual} target="_blank" />}
      </div>
      {adding && (
        <AddLayer
          onCancel={() => setAdding(false)}
          onAdd={(hit) => {
            onChange(addLayer(tree, hit.resource_uri));
            setAdding(false);
          }}
        />
      )}
      {!rows.length ? (
        <Callout>{t('tree.empty')}</Callout>
      ) : (
        <HTMLTable compact className="wb-view-tree-table">
          <thead>
            <tr>
              <th>{t('tree.name')}</th>
              {COLUMNS.map((c) => (
                <th key={c}>{t(`tree.${c}`)}</th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const key = placeKey(r.place);
              const name = nameOf(r);
              const siblings = r.layer
                ? rows.filter((o) => o.layer && o.place.group.join('.') === r.place.group.join('.')).length
                : 0;
              return (
                <tr
                  key={key}
                  data-testid={`view-tree-row-${i}`}
                  onDragOver={(e) => dragged && e.preventDefault()}
                  onDrop={(e) => {
                    e.preventDefault();
                    const moved = dragged && moveRow(tree, dragged, r.place);
                    setDragged(undefined);
                    if (moved) onChange(moved);
                  }}
                >
                  <td style={{ paddingLeft: 8 + r.depth * INDENT_PX }}>
                    {!readOnly && (
                      <span
                        className="wb-view-drag"
                        draggable
                        role="img"
                        aria-label={String(t('tree.drag', { name }))}
                        onDragStart={(e) => {
                          e.dataTransfer.effectAllowed = 'move';
                          e.dataTransfer.setData('text/plain', key);
                          setDragged(r.place);
                        }}
                        onDragEnd={() => setDragged(undefined)}
                      >
                        ⋮⋮
                      </span>
                    )}
                    {r.group && (
                      <Button
                        size="small"
                        variant="minimal"
                        icon={collapsed.has(key) ? 'caret-right' : 'caret-down'}
                        aria-label={String(t(collapsed.has(key) ? 'tree.expand' : 'tree.collapse', { name }))}
                        onClick={() => {
                          const next = new Set(collapsed);
                          if (next.has(key)) next.delete(key);
                          else next.add(key);
                          setCollapsed(next);
                        }}
                      />
                    )}
                    <span>{name}</span>
                  </td>
                  {COLUMNS.map((c) => cell(r, c))}
                  <td className="wb-view-row-actions">
                    {!readOnly && (
                      <>
                        <Button
                          size="small"
                          variant="minimal"
                          icon="chevron-up"
                          aria-label={String(t('tree.move_up', { name }))}
                          disabled={r.place.index === 0}
                          onClick={() => onChange(shiftRow(tree, r.place, -1))}
                        />
                        <Button
                          size="small"
                          variant="minimal"
                          icon="chevron-down"
                          aria-label={String(t('tree.move_down', { name }))}
                          disabled={r.layer ? r.place.index >= siblings - 1 : r.place.index >= groupSize(tree, r.place) - 1}
                          onClick={() => onChange(shiftRow(tree, r.place, 1))}
                        />
                      </>
                    )}
                    <Button
                      size="small"
                      variant="minimal"
                      icon="arrow-right"
                      aria-label={String(t('tree.edit', { name }))}
                      data-testid={`view-tree-edit-${i}`}
                      onClick={() => setEditing(r.place)}
                    />
                    <Popover
                      content={
                        <Menu>
                          {r.layer && layerIdOf(r.layer.layer) !== undefined && (
                            <MenuItem
                              icon="eye-open"
                              text={t('tree.show_layer')}
                              onClick={() => navigate(`/layers/edit/${layerIdOf(r.layer!.layer)}`)}
                            />
                          )}
                          {!readOnly && (
                            <MenuItem
                              icon="trash"
                              intent="danger"
                              text={t(r.layer ? 'tree.remove_layer' : 'tree.remove_group')}
                              onClick={() => onChange(removeRow(tree, r.place))}
                            />
                          )}
                        </Menu>
                      }
                    >
                      <Button size="small" variant="minimal" icon="more" aria-label={String(t('tree.menu', { name }))} />
                    </Popover>
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

const groupSize = (tree: ViewLayerGroup, place: RowPlace) =>
  place.group.reduce((g, i) => g.layergroups[i], tree).layergroups.length;
