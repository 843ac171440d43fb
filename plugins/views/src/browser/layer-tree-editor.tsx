import { useState, useNavigate } from '@werkbank/sdk/react';
import { AnchorButton, Button, Callout, Checkbox, HTMLTable, Menu, MenuItem, Popover } from '@werkbank/sdk/ui';
import { ConfigStore, I18nService, useObjectNames, useService, useT } from '@werkbank/sdk/browser';
import { layerIdOf, viewLayers, type ViewLayerGroup } from '../common/view-tree';
import { AddLayer, GroupDetail, LayerDetail } from './layer-tree-details';
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

const INDENT_PX = 25;

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
  // Entries without a name of their own show their layer's.
  const addressOf = (layer: string) => `/api/v1/layer/${layerIdOf(layer) ?? 0}/`;
  const layerNames = useObjectNames(viewLayers(tree).map((l) => addressOf(l.layer)));
  const nameOf = (r: TreeRow) =>
    r.layer ? r.layer.name || layerNames[addressOf(r.layer.layer)] || r.layer.layer : r.group!.name;
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
