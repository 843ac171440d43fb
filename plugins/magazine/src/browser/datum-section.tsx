import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { Button, Callout } from '@werkbank/sdk/ui';
import {
  ApiClient,
  I18nService,
  NavigationStore,
  NotificationService,
  ObjectList,
  ResourceListStore,
  SearchBar,
  TypeHierarchy,
  observer,
  useTypeTemplate,
  useService,
  useT,
  type Presentation,
} from '@werkbank/sdk/browser';
import { typeNameOf, type Datum, type Depot } from '../common/magazine-types';
import { DATUM_PRESENTATION_KEY } from '../common/magazine-ids';
import type { DatumMenuTarget } from '../common/magazine-api';
import { datumFields } from '../common/datum-fields';
import type { DepotStore } from './depot-store';
import { useDatumActions } from './use-datum-actions';
import { DatumCardMenu } from './datum-card-menu';
import { DatumCard } from './datum-card';
import { DatumEditDialog } from './datum-edit-dialog';
import { fieldColumns, fileColumns } from './datum-columns';
import { FileUploadWidget } from './file-upload-widget';
import { DepotMap } from './depot-map';

interface Editing {
  datum?: Datum;
  fields: Record<string, unknown>;
  /** The new datum's template (for an existing datum: the type's, useTypeTemplate). */
  template?: Record<string, unknown>;
}

/**
 * The datums of a depot at the head or at the selected moment (read-only unless it is the open
 * head and the caller may change the depot): search, cards or table with infinite scroll, a menu
 * per datum, a new datum for types that can be created by hand, and the file upload for file
 * depots. `onWrite` reloads the depot.
 */
export const DatumSection = observer(function DatumSection({
  store,
  depot,
  reloadKey,
  onWrite,
}: {
  store: DepotStore;
  depot: Depot;
  reloadKey: number;
  onWrite(): void;
}) {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const types = useService(TypeHierarchy);
  const i18n = useService(I18nService);
  const notifications = useService(NotificationService);
  const t = useT('magazine');
  const path = store.datumListPath;
  const list = useMemo(() => new ResourceListStore<Datum>(api, path, 40), [api, path]);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<Editing>();
  const presentation = nav.get<Presentation>(DATUM_PRESENTATION_KEY, 'cards');
  const typeName = typeNameOf(depot.content_type);
  const typeTemplate = useTypeTemplate(typeName);
  const isFile = types.isAssignable(typeName, 'file') || typeName === 'file';
  const located = types.isAssignable(typeName, 'feature') || typeName === 'feature';
  // WMS and WMTS depots show their maps as imagery (decision 0067).
  const mapKind = located ? 'feature' : (['wms', 'wmts'] as const).find((k) => typeName === k || types.isAssignable(typeName, k));
  const readOnly = store.datumsReadOnly;
  const reload = () => void list.reload().catch(() => undefined);
  useEffect(() => {
    list.setQuery({ q: query });
    reload();
  }, [list, reloadKey, query]);
  const actions = useDatumActions(store, () => (reload(), onWrite()));

  const target = (datum: Datum): DatumMenuTarget => ({
    datum,
    depot: { id: depot.id, resource_uri: depot.resource_uri, name: depot.name, content_type: depot.content_type },
    readOnly,
  });
  const edit = (datum: Datum) => setEditing({ datum, fields: datumFields(datum) });
  const menu = (datum: Datum) => (
    <DatumCardMenu
      target={target(datum)}
      canDuplicate={!isFile}
      writable={store.writable}
      onEdit={() => edit(datum)}
      onDuplicate={() => void actions.duplicate(datum)}
      onDelete={() => void actions.remove(datum)}
    />
  );
  const create = () =>
    actions.template().then(
      (fields) => setEditing({ fields, template: fields }),
      (e: Error) => notifications.error(e.message),
    );
  const columns = isFile ? fileColumns(t, i18n.language, menu) : fieldColumns(list.items, t, menu);

  return (
    <section data-testid="datum-section">
      {store.readOnly && store.writable && (
        <Callout intent="primary" icon="history" className="wb-gap" data-testid="datum-read-only">
          {t('datum.read_only')}
        </Callout>
      )}
      {isFile && !readOnly && <FileUploadWidget depot={depot.resource_uri} onReady={() => (reload(), onWrite())} />}
      <SearchBar
        value={text}
        onChange={setText}
        autoFocus={false}
        onSubmit={setQuery}
        presentation={presentation}
        onPresentationChange={(p) => nav.set(DATUM_PRESENTATION_KEY, p)}
      >
        {!isFile && !readOnly && <Button icon="add" text={t('datum.new')} onClick={create} data-testid="datum-new" />}
      </SearchBar>
      <div className={mapKind ? 'wb-depot-located' : undefined}>
        <ObjectList
          store={list}
          presentation={presentation}
          columns={columns}
          emptyText={String(t('datum.none'))}
          onOpen={edit}
          renderCard={(d) => <DatumCard datum={d} isFile={isFile} menu={menu(d)} />}
        />
        {mapKind && <DepotMap list={list} kind={mapKind} />}
      </div>
      {editing && (editing.template ?? typeTemplate) && (
        <DatumEditDialog
          title={String(editing.datum ? editing.datum.text_repr || t('datum.title') : t('datum.new'))}
          contentType={depot.content_type}
          fields={editing.fields}
          template={(editing.template ?? typeTemplate)!}
          readOnly={readOnly}
          onSave={(fields) => (editing.datum ? actions.save(editing.datum, fields) : actions.create(fields))}
          onClose={() => setEditing(undefined)}
        />
      )}
    </section>
  );
});
