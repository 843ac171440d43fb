import { useState, type ReactElement } from '@werkbank/sdk/globe';
import type { Poi, PoiGroup } from '../common/view-tree';
import type { CameraTarget } from './viewer-globe';
import type { ViewerT } from './viewer-i18n';

/** The camera target of a POI: looking at it from its distance, turned by its yaw and pitch. */
export const poiTarget = (poi: Poi, withFlight = true): CameraTarget => ({
  kind: 'look',
  lon: poi.lon,
  lat: poi.lat,
  height: poi.ground_ref === 'none' ? 0 : poi.height,
  heading: poi.yaw,
  pitch: poi.pitch,
  range: poi.elevation,
  duration: withFlight ? poi.fly_duration : 0,
});

interface PlacesProps {
  root: PoiGroup;
  tr: (text: string) => string;
  t: ViewerT;
  onPoi: (poi: Poi) => void;
  onTour: (group: PoiGroup) => void;
}

function Group(props: PlacesProps & { group: PoiGroup; path: string }): ReactElement {
  const { group, t } = props;
  const [open, setOpen] = useState(group.init_expanded);
  const name = props.tr(group.name);
  const list = `wbv-places-${props.path}`;
  return (
    <li>
      <div className="wbv-row">
        <button
          type="button"
          className="wbv-icon"
          aria-expanded={open}
          aria-controls={list}
          aria-label={t('open_group', { name })}
          onClick={() => setOpen(!open)}
        >
          {open ? '▾' : '▸'}
        </button>
        <span>{name}</span>
        {group.is_tour && group.pois.some((p) => p.visible) && (
          <button type="button" className="wbv-button" onClick={() => props.onTour(group)}>
            {t('start_tour', { name })}
          </button>
        )}
      </div>
      {open && <Entries {...props} id={list} />}
    </li>
  );
}

function Entries(props: PlacesProps & { group: PoiGroup; path: string; id?: string }): ReactElement {
  return (
    <ul id={props.id} className="wbv-entries">
      {props.group.pois
        .filter((p) => p.visible)
        .map((poi, i) => (
          <li key={`p${i}`}>
            <button
              type="button"
              className="wbv-link"
              aria-label={props.t('fly_to', { name: props.tr(poi.name) })}
              onClick={() => props.onPoi(poi)}
            >
              {props.tr(poi.name)}
            </button>
          </li>
        ))}
      {props.group.poigroups
        .filter((g) => g.visible)
        .map((g, i) => (
          <Group key={`g${i}`} {...props} group={g} path={`${props.path}-${i}`} />
        ))}
    </ul>
  );
}

/** The view's places: POIs to fly to, and groups shown as tours with a start button. */
export function Places(props: PlacesProps): ReactElement {
  return <Entries {...props} group={props.root} path="0" />;
}

/** Whether a POI tree has anything to show. */
export const hasPlaces = (g: PoiGroup): boolean =>
  g.pois.some((p) => p.visible) || g.poigroups.some((c) => c.visible && hasPlaces(c));
