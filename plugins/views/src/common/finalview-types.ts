import type { FinalviewPins, FrozenView } from './finalview-fields';

/** A frozen view as `/api/v1/finalview/{id}/` answers it. */
export interface Finalview {
  id: number;
  resource_uri: string;
  slug: string;
  name: string;
  view: string | null;
  public: boolean;
  frozen: FrozenView;
  pins: FinalviewPins;
  user: string | null;
  owner?: string | null;
  access?: string[];
  created: string;
  modified: string;
}

export const FINALVIEW_PATH = '/api/v1/finalview/';
export const FINALVIEWS_ROUTE = '/finalviews/';
export const finalviewEditRoute = (id: number | string) => `/finalviews/edit/${id}`;
