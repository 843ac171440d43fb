import { useEffect, useMemo, useState, useNavigate, useParams } from '@werkbank/sdk/react';
import { Callout, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, ObjectEditorHost, observer, useRecentlyUsed, useService } from '@werkbank/sdk/browser';
import { folderRoute, idOf } from '../common/magazine-types';
import { DEPOT_MRU_KEY, DEPOT_MRU_LIMIT } from '../common/magazine-ids';
import { DepotStore } from './depot-store';
import { FolderTreeStore } from './folder-tree-store';
import { DepotHeader } from './depot-header';
import { MomentList } from './moment-list';
import { DatumSection } from './datum-section';
import { useMomentActions } from './use-moment-actions';
import { useMagazineActions } from './use-magazine-actions';

/**
 * One depot at /depot/{depotId}/ and /depot/{depotId}/moment/{momentId} (spec 000 §2): header,
 * moments, and the datums at the head or at the selected moment. Opening it puts the depot first
 * in the user's recently used depots (spec 000 §9).
 */
const DepotScreen = observer(function DepotScreen() {
  const params = useParams();
  const depotId = Number(params.depotId);
  const momentId = params.momentId ? Number(params.momentId) : undefined;
  const api = useService(ApiClient);
  const navigate = useNavigate();
  const recent = useRecentlyUsed(DEPOT_MRU_KEY, DEPOT_MRU_LIMIT);
  const store = useMemo(() => new DepotStore(api, depotId), [api, depotId]);
  const tree = useMemo(() => new FolderTreeStore(api), [api]);
  const [reloadKey, setReloadKey] = useState(0);
  const [editing, setEditing] = useState(false);
  const reloadDatums = () => setReloadKey((k) => k + 1);
  const moments = useMomentActions(store, reloadDatums);
  const magazine = useMagazineActions();

  useEffect(() => {
    void store.select(momentId);
  }, [store, momentId]);
  useEffect(() => {
    void store.load();
    void tree.load();
  }, [store, tree]);
  const depot = store.depot;
  useEffect(() => {
    if (depot) recent.touch({ id: depot.id, name: depot.name });
  }, [depot?.id, depot?.name]);

  if (store.error) return <Callout intent="danger">{store.error}</Callout>;
  if (!depot) return <Spinner className="wb-spinner" />;
  const folderId = idOf(depot.folder);
  return (
    <div className="wb-page" data-testid="depot-screen">
      <DepotHeader
        depot={depot}
        trail={tree.trail(folderId)}
        writable={store.writable}
        onEdit={() => setEditing(true)}
        onDelete={() => void magazine.removeDepot(depot).then((gone) => gone && navigate(folderRoute(folderId)))}
      />
      <MomentList store={store} actions={moments} />
      {store.ready && <DatumSection store={store} depot={depot} reloadKey={reloadKey} onWrite={() => void store.load()} />}
      {editing && (
        <ObjectEditorHost
          address={depot.resource_uri}
          onClose={(saved) => {
            setEditing(false);
            if (saved) void store.load().then(() => tree.load());
          }}
        />
      )}
    </div>
  );
});

export default DepotScreen;
