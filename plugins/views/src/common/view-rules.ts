/** The address of the view resource and the limits of its fields (spec 002 §3). */
export const VIEW_PATH = '/api/v1/view/';
export const SLUG_MAX = 100;

/** A view's address from its id. */
export const viewAddress = (id: number) => `${VIEW_PATH}${id}/`;

/** spec 002 §5: the note shown when a public view has no short name. */
export const needsSlugNote = (view: { public?: boolean; slug?: string }) => !!view.public && !view.slug;
