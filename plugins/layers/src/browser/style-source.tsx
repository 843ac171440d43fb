import { useCallback, useEffect, useState } from '@werkbank/sdk/react';
import {
  Button,
  Callout,
  Checkbox,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Radio,
  RadioGroup,
} from '@werkbank/sdk/ui';
import { ApiClient, useService, useT, type ListResponse } from '@werkbank/sdk/browser';
import { SAVE_STYLE_ACTION, type Layer } from '../common/layers-api';
import type { LayerStyle } from '../common/style-model';

const DEPOT_PATH = '/api/v1/depot/';
const DATUM_PATH = '/api/v1/datum/';

/** A style depot as the Magazine lists it (the fields used here). */
interface StyleDepot {
  id: number;
  name: string;
  resource_uri: string;
  access?: string[];
}

/** A style datum as the Magazine gives it (decision 0068: `value` is `{name?, rules}`). */
interface StyleDatum {
  id: number;
  value?: { name?: string; rules?: LayerStyle['rules'] };
  version?: string;
  moment_id?: number;
  depot?: string;
}

/** The datum address without a moment: `/api/v1/datum/{id}/`. */
export const datumAddress = (id: number) => `${DATUM_PATH}${id}/`;
const idOf = (address: string | null | undefined) => Number(/(\d+)(?:@\d+)?\/?$/.exec(address ?? '')?.[1] ?? NaN);

/** The linked style datum of a layer as the editor holds it: read from the depot's head, edited, saved with the layer. */
export interface LinkedStyle {
  datum: string;
  status: 'loading' | 'ready' | 'unreadable';
  style: LayerStyle;
  name: string;
  version?: string;
  depot: string;
  depotName: string;
  /** The caller may change the style depot (and so write a new version). */
  writable: boolean;
  /** Edited since it was read or saved. */
  dirty: boolean;
}

/**
 * The layer's linked style datum (decision 0068) for the editor: loads the datum's head version
 * and its depot when `address` changes, keeps the edits, and `save` writes them as a new version
 * through `{layer}save_style/` (the Magazine's moments and permissions apply).
 */
export function useLinkedStyle(address: string | null) {
  const api = useService(ApiClient);
  const [linked, setLinked] = useState<LinkedStyle>();
  const load = useCallback(
    async (datum: string) => {
      try {
        const d = await api.get<StyleDatum>(datum);
        const depot = d.depot ? await api.get<StyleDepot>(d.depot) : undefined;
        setLinked({
          datum,
          status: 'ready',
          style: { rules: d.value?.rules ?? [] },
          name: d.value?.name || '',
          version: d.version,
          depot: d.depot ?? '',
          depotName: depot?.name ?? '',
          writable: !!depot?.access?.includes('write'),
          dirty: false,
        });
      } catch {
        setLinked({
          datum,
          status: 'unreadable',
          style: { rules: [] },
          name: '',
          depot: '',
          depotName: '',
          writable: false,
          dirty: false,
        });
      }
    },
    [api],
  );
  useEffect(() => {
    if (!address) {
      setLinked(undefined);
      return;
    }
    setLinked({
      datum: address,
      status: 'loading',
      style: { rules: [] },
      name: '',
      depot: '',
      depotName: '',
      writable: false,
      dirty: false,
    });
    void load(address);
  }, [address, load]);
  const setStyle = (style: LayerStyle) => setLinked((l) => (l ? { ...l, style, dirty: true } : l));
  /** Writes the edited style as a new version of the datum, when there are edits. */
  const save = async (layer: Layer) => {
    if (!linked || !linked.dirty || linked.status !== 'ready') return;
    await api.post(`${layer.resource_uri}${SAVE_STYLE_ACTION}`, {
      datum: linked.datum,
      style: linked.style,
      ...(linked.version ? { version: linked.version } : {}),
    });
    await load(linked.datum);
  };
  return { linked, setStyle, save };
}

/**
 * Where the layer's style comes from (decision 0068): its own style, or a style datum of a style
 * depot the user may read (picked here); and "Save as style datum" into a style depot the user may
 * change, optionally linking it.
 */
export function StyleSourcePanel({
  layer,
  linked,
  style,
  readOnly,
  onLink,
  onSavedAs,
}: {
  layer: Layer;
  linked: LinkedStyle | undefined;
  /** The style shown now (saved as a datum by "Save as style datum"). */
  style: LayerStyle;
  readOnly: boolean;
  onLink(datum: string | null): void;
  /** After "Save as style datum" with linking: the layer as the server now has it. */
  onSavedAs(layer: Layer | undefined, message: string): void;
}) {
  const t = useT('layers');
  const api = useService(ApiClient);
  const [mode, setMode] = useState<'own' | 'datum'>(layer.style_datum ? 'datum' : 'own');
  const [depots, setDepots] = useState<StyleDepot[]>();
  const [depot, setDepot] = useState<string>('');
  const [datums, setDatums] = useState<StyleDatum[]>();
  const [saveAs, setSaveAs] = useState(false);
  useEffect(() => {
    if (layer.style_datum) setMode('datum');
  }, [layer.style_datum]);
  useEffect(() => {
    api.get<ListResponse<StyleDepot>>(`${DEPOT_PATH}by-type/style/`, { query: { limit: 1000, order_by: 'name' } }).then(
      (r) => setDepots(r.objects),
      () => setDepots([]),
    );
  }, [api]);
  // The linked datum's depot is the one shown.
  useEffect(() => {
    if (linked?.depot) setDepot(linked.depot);
  }, [linked?.depot]);
  useEffect(() => {
    const id = idOf(depot);
    if (!Number.isFinite(id)) {
      setDatums(undefined);
      return;
    }
    api.get<ListResponse<StyleDatum>>(`${DATUM_PATH}by-depot/${id}/`, { query: { limit: 1000 } }).then(
      (r) => setDatums(r.objects),
      () => setDatums([]),
    );
  }, [api, depot, linked?.name]);
  const styleName = (d: StyleDatum) => d.value?.name || String(t('style_source.unnamed', { id: d.id }));

  return (
    <section aria-labelledby="style-source-title" data-testid="style-source" style={{ marginBottom: 12 }}>
      <h3 id="style-source-title">{t('style_source.title')}</h3>
      <RadioGroup
        name="style-source"
        inline
        disabled={readOnly}
        selectedValue={mode}
        onChange={(e) => {
          const next = e.currentTarget.value as 'own' | 'datum';
          setMode(next);
          if (next === 'own') onLink(null);
        }}
      >
        <Radio value="own" label={String(t('style_source.own'))} data-testid="style-source-own" />
        <Radio value="datum" label={String(t('style_source.datum'))} data-testid="style-source-datum" />
      </RadioGroup>
      {mode === 'datum' && (
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
          {depots && !depots.length ? (
            <Callout data-testid="style-source-no-depots">{t('style_source.no_depots')}</Callout>
          ) : (
            <>
              <FormGroup label={t('style_source.depot')} labelFor="style-source-depot">
                <HTMLSelect id="style-source-depot" disabled={readOnly} value={depot} onChange={(e) => setDepot(e.target.value)}>
                  <option value="">{t('style_source.choose_depot')}</option>
                  {(depots ?? []).map((d) => (
                    <option key={d.id} value={d.resource_uri}>
                      {d.name}
                    </option>
                  ))}
                </HTMLSelect>
              </FormGroup>
              {depot && (
                <FormGroup label={t('style_source.style')} labelFor="style-source-datum-select">
                  <HTMLSelect
                    id="style-source-datum-select"
                    disabled={readOnly || !datums?.length}
                    value={Number.isFinite(idOf(layer.style_datum)) ? datumAddress(idOf(layer.style_datum)) : ''}
                    onChange={(e) => onLink(e.target.value || null)}
                  >
                    <option value="">{t('style_source.choose_style')}</option>
                    {(datums ?? []).map((d) => (
                      <option key={d.id} value={datumAddress(d.id)}>
                        {styleName(d)}
                      </option>
                    ))}
                  </HTMLSelect>
                </FormGroup>
              )}
            </>
          )}
          {depot && datums && !datums.length && <Callout>{t('style_source.no_styles')}</Callout>}
        </div>
      )}
      {linked?.status === 'loading' && <p className="wb-muted">{t('style_source.loading')}</p>}
      {linked?.status === 'unreadable' && (
        <Callout intent="warning" data-testid="style-source-unreadable">
          {t('style_source.unreadable')}
        </Callout>
      )}
      {linked?.status === 'ready' && (
        <Callout data-testid="style-source-linked">
          {linked.writable
            ? t('style_source.linked', {
                name: linked.name || t('style_source.unnamed', { id: idOf(linked.datum) }),
                depot: linked.depotName,
              })
            : t('style_source.linked_read_only', { depot: linked.depotName })}
        </Callout>
      )}
      {!readOnly && (
        <Button
          icon="export"
          text={t('style_source.save_as')}
          data-testid="style-save-as"
          style={{ marginTop: 8 }}
          onClick={() => setSaveAs(true)}
        />
      )}
      {saveAs && (
        <SaveAsStyleDialog
          layer={layer}
          style={style}
          depots={(depots ?? []).filter((d) => d.access?.includes('write'))}
          onClose={() => setSaveAs(false)}
          onSaved={(saved, message) => {
            setSaveAs(false);
            if (saved) setMode('datum');
            onSavedAs(saved, message);
          }}
        />
      )}
    </section>
  );
}

/** "Save as style datum": a style depot the user may change, a name, and whether the layer links it. */
function SaveAsStyleDialog({
  layer,
  style,
  depots,
  onClose,
  onSaved,
}: {
  layer: Layer;
  style: LayerStyle;
  depots: StyleDepot[];
  onClose(): void;
  onSaved(layer: Layer | undefined, message: string): void;
}) {
  const t = useT('layers');
  const api = useService(ApiClient);
  const [depot, setDepot] = useState(depots[0]?.resource_uri ?? '');
  const [name, setName] = useState(layer.name);
  const [link, setLink] = useState(true);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const reply = await api.post<{ layer?: Layer }>(`${layer.resource_uri}${SAVE_STYLE_ACTION}`, {
        depot,
        name,
        style,
        link,
      });
      onSaved(reply.layer, String(t('style_source.saved_as', { name })));
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen title={t('style_source.save_as_title')} onClose={onClose} data-testid="style-save-as-dialog">
      <DialogBody>
        {!depots.length ? (
          <Callout>{t('style_source.no_writable_depots')}</Callout>
        ) : (
          <>
            <FormGroup label={t('style_source.save_as_depot')} labelFor="style-save-as-depot">
              <HTMLSelect id="style-save-as-depot" fill value={depot} onChange={(e) => setDepot(e.target.value)}>
                {depots.map((d) => (
                  <option key={d.id} value={d.resource_uri}>
                    {d.name}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
            <FormGroup label={t('style_source.save_as_name')} labelFor="style-save-as-name">
              <InputGroup id="style-save-as-name" value={name} onValueChange={setName} />
            </FormGroup>
            <Checkbox
              id="style-save-as-link"
              label={String(t('style_source.save_as_link'))}
              checked={link}
              onChange={(e) => setLink(e.currentTarget.checked)}
            />
          </>
        )}
        {error && (
          <Callout intent="danger" role="alert">
            {error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('style_source.cancel')} onClick={onClose} />
            <Button
              intent="primary"
              text={t('style_source.save_as_submit')}
              data-testid="style-save-as-submit"
              disabled={!depots.length || !depot}
              loading={busy}
              onClick={() => void submit()}
            />
          </>
        }
      />
    </Dialog>
  );
}
