import { useState } from '@werkbank/sdk/react';
import { Button, ButtonGroup, Callout, FormGroup, HTMLSelect, HTMLTable, InputGroup, Switch, TextArea } from '@werkbank/sdk/ui';
import { ObjectSearchPicker, useObjectNames, useT, type PickedObject } from '@werkbank/sdk/browser';
import { HEADLINE_ICONS, type PortalLayer, type PortalView } from '../common/portal-entries';
import { shifted } from '../common/portal-types';

/** The search that adds a view or a layer. */
function AddBySearch({ path, onAdd, onCancel }: { path: string; onAdd(hit: PickedObject): void; onCancel(): void }) {
  return <ObjectSearchPicker path={path} inputId="portal-search" testId="portal-add" onAdd={onAdd} onCancel={onCancel} />;
}

/** The rows of a portal's entries: name, move up and down, edit, remove. */
function EntryRows<T extends { order: number }>(props: {
  list: T[];
  nameOf(e: T): string;
  readOnly: boolean;
  onChange(list: T[]): void;
  onEdit(index: number): void;
  testId: string;
}) {
  const t = useT('portals');
  return (
    <HTMLTable compact data-testid={props.testId}>
      <tbody>
        {props.list.map((e, i) => {
          const name = props.nameOf(e);
          return (
            <tr key={i}>
              <td>{name}</td>
              <td>
                {!props.readOnly && (
                  <>
                    <Button
                      size="small"
                      variant="minimal"
                      icon="chevron-up"
                      disabled={i === 0}
                      aria-label={String(t('editor.move_up', { name }))}
                      onClick={() => props.onChange(shifted(props.list, i, -1))}
                    />
                    <Button
                      size="small"
                      variant="minimal"
                      icon="chevron-down"
                      disabled={i === props.list.length - 1}
                      aria-label={String(t('editor.move_down', { name }))}
                      onClick={() => props.onChange(shifted(props.list, i, 1))}
                    />
                  </>
                )}
                <Button
                  size="small"
                  variant="minimal"
                  icon="edit"
                  aria-label={String(t('editor.edit', { name }))}
                  onClick={() => props.onEdit(i)}
                />
                {!props.readOnly && (
                  <Button
                    size="small"
                    variant="minimal"
                    icon="trash"
                    aria-label={String(t('editor.remove', { name }))}
                    onClick={() => props.onChange(props.list.filter((_, j) => j !== i).map((x, j) => ({ ...x, order: j })))}
                  />
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </HTMLTable>
  );
}

const text = (
  label: string,
  id: string,
  value: string | undefined,
  readOnly: boolean,
  set: (v: string) => void,
  area = false,
) => (
  <FormGroup label={label} labelFor={id}>
    {area ? (
      <TextArea id={id} fill disabled={readOnly} value={value ?? ''} onChange={(e) => set(e.currentTarget.value)} />
    ) : (
      <InputGroup id={id} disabled={readOnly} value={value ?? ''} onValueChange={set} />
    )}
  </FormGroup>
);

/** The Views tab (spec 002 §2): add a view, add an external view (its name defaults to the address in brackets), edit, remove, reorder. */
export function PortalViewsTab({
  views,
  readOnly,
  onChange,
}: {
  views: PortalView[];
  readOnly: boolean;
  onChange(v: PortalView[]): void;
}) {
  const t = useT('portals');
  const [adding, setAdding] = useState<'view' | 'external'>();
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<number>();
  const names = useObjectNames(views.map((v) => v.view));
  const nameOf = (v: PortalView) => v.name || (v.view ? (names[v.view] ?? v.view) : `(${v.attr.external_url ?? ''})`);
  const add = (entry: Omit<PortalView, 'order'>) => onChange([...views, { ...entry, order: views.length }]);
  if (editing !== undefined && views[editing]) {
    const v = views[editing];
    const set = (p: Partial<PortalView['attr']> & { name?: string }) => {
      const { name: n, ...attr } = p;
      onChange(
        views.map((x, i) =>
          i === editing ? { ...x, ...(n !== undefined ? { name: n } : {}), attr: { ...x.attr, ...attr } } : x,
        ),
      );
    };
    return (
      <div className="wb-view-detail" data-testid="portal-view-detail">
        <Button icon="arrow-left" text={t('editor.back')} onClick={() => setEditing(undefined)} />
        <FormGroup label={t('editor.entry_name')} labelFor="portal-view-name" helperText={t('editor.entry_name_help')}>
          <InputGroup id="portal-view-name" disabled={readOnly} value={v.name} onValueChange={(n) => set({ name: n })} />
        </FormGroup>
        {!v.view &&
          text(String(t('editor.external_url')), 'portal-view-url', v.attr.external_url, readOnly, (x) =>
            set({ external_url: x }),
          )}
        {text(String(t('editor.image')), 'portal-view-image', v.attr.image, readOnly, (x) => set({ image: x }))}
        {text(String(t('editor.subline')), 'portal-view-subline', v.attr.subline, readOnly, (x) => set({ subline: x }))}
        {text(
          String(t('editor.description')),
          'portal-view-description',
          v.attr.description,
          readOnly,
          (x) => set({ description: x }),
          true,
        )}
        {text(
          String(t('editor.infobox_text')),
          'portal-view-infobox',
          v.attr.infobox_text,
          readOnly,
          (x) => set({ infobox_text: x }),
          true,
        )}
        <FormGroup label={t('editor.headline_icon')} labelFor="portal-view-icon">
          <HTMLSelect
            id="portal-view-icon"
            disabled={readOnly}
            value={v.attr.headline_icon ?? ''}
            options={[
              { value: '', label: String(t('editor.icon_none')) },
              ...HEADLINE_ICONS.map((i) => ({ value: i, label: String(t(`editor.icon_${i}`)) })),
            ]}
            onChange={(e) => set({ headline_icon: (e.currentTarget.value || undefined) as PortalView['attr']['headline_icon'] })}
          />
        </FormGroup>
      </div>
    );
  }
  return (
    <div data-testid="portal-views">
      {!readOnly && (
        <div className="wb-toolbar">
          <Button icon="add" text={t('editor.add_view')} data-testid="portal-add-view" onClick={() => setAdding('view')} />
          <Button
            icon="link"
            text={t('editor.add_external')}
            data-testid="portal-add-external"
            onClick={() => setAdding('external')}
          />
        </div>
      )}
      {adding === 'view' && (
        <AddBySearch
          path="/api/v1/view/"
          onCancel={() => setAdding(undefined)}
          onAdd={(hit) => {
            add({ view: hit.resource_uri, name: '', attr: {} });
            setAdding(undefined);
          }}
        />
      )}
      {adding === 'external' && (
        <div className="wb-view-add-layer">
          <FormGroup label={t('editor.external_url')} labelFor="portal-external-url">
            <InputGroup id="portal-external-url" autoFocus value={url} placeholder="https://" onValueChange={setUrl} />
          </FormGroup>
          <FormGroup
            label={t('editor.external_name')}
            labelFor="portal-external-name"
            helperText={t('editor.external_name_help')}
          >
            <InputGroup id="portal-external-name" value={name} placeholder={url ? `(${url})` : ''} onValueChange={setName} />
          </FormGroup>
          <ButtonGroup>
            <Button
              intent="primary"
              text={t('editor.add')}
              disabled={!/^https?:\/\/\S+$/i.test(url)}
              data-testid="portal-add-external-confirm"
              onClick={() => {
                add({ view: null, name: name.trim() || `(${url})`, attr: { external_url: url } });
                setAdding(undefined);
                setUrl('');
                setName('');
              }}
            />
            <Button text={t('editor.cancel')} onClick={() => setAdding(undefined)} />
          </ButtonGroup>
        </div>
      )}
      {views.length ? (
        <EntryRows
          list={views}
          nameOf={nameOf}
          readOnly={readOnly}
          onChange={onChange}
          onEdit={setEditing}
          testId="portal-view-rows"
        />
      ) : (
        <Callout>{t('editor.no_views')}</Callout>
      )}
    </div>
  );
}

/** The Layer tab (spec 002 §2): add, edit, remove, reorder the portal's layers. */
export function PortalLayersTab({
  layers,
  readOnly,
  onChange,
}: {
  layers: PortalLayer[];
  readOnly: boolean;
  onChange(l: PortalLayer[]): void;
}) {
  const t = useT('portals');
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number>();
  const names = useObjectNames(layers.map((l) => l.layer));
  const nameOf = (l: PortalLayer) => l.name || names[l.layer] || l.layer;
  if (editing !== undefined && layers[editing]) {
    const l = layers[editing];
    const set = (p: Partial<PortalLayer>) => onChange(layers.map((x, i) => (i === editing ? { ...x, ...p } : x)));
    const setAttr = (p: Partial<PortalLayer['attr']>) => set({ attr: { ...l.attr, ...p } });
    return (
      <div className="wb-view-detail" data-testid="portal-layer-detail">
        <Button icon="arrow-left" text={t('editor.back')} onClick={() => setEditing(undefined)} />
        <FormGroup label={t('editor.entry_name')} labelFor="portal-layer-name" helperText={t('editor.entry_name_help')}>
          <InputGroup id="portal-layer-name" disabled={readOnly} value={l.name} onValueChange={(name) => set({ name })} />
        </FormGroup>
        {text(String(t('editor.image')), 'portal-layer-image', l.attr.image, readOnly, (x) => setAttr({ image: x }))}
        {text(
          String(t('editor.description')),
          'portal-layer-description',
          l.attr.description,
          readOnly,
          (x) => setAttr({ description: x }),
          true,
        )}
        <Switch
          label={String(t('editor.queryable'))}
          disabled={readOnly}
          checked={!!l.attr.queryable}
          onChange={(e) => setAttr({ queryable: e.currentTarget.checked || undefined })}
        />
        <Switch
          label={String(t('editor.exportable'))}
          disabled={readOnly}
          checked={!!l.attr.exportable}
          onChange={(e) => setAttr({ exportable: e.currentTarget.checked || undefined })}
        />
      </div>
    );
  }
  return (
    <div data-testid="portal-layers">
      {!readOnly && (
        <div className="wb-toolbar">
          <Button icon="add" text={t('editor.add_layer')} data-testid="portal-add-layer" onClick={() => setAdding(true)} />
        </div>
      )}
      {adding && (
        <AddBySearch
          path="/api/v1/layer/"
          onCancel={() => setAdding(false)}
          onAdd={(hit) => {
            onChange([...layers, { layer: hit.resource_uri, name: '', order: layers.length, attr: {} }]);
            setAdding(false);
          }}
        />
      )}
      {layers.length ? (
        <EntryRows
          list={layers}
          nameOf={nameOf}
          readOnly={readOnly}
          onChange={onChange}
          onEdit={setEditing}
          testId="portal-layer-rows"
        />
      ) : (
        <Callout>{t('editor.no_layers')}</Callout>
      )}
    </div>
  );
}
