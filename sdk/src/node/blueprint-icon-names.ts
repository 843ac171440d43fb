import icons from '@blueprintjs/icons/icons.json' with { type: 'json' };

/**
 * Every icon name Blueprint draws (its own list, `@blueprintjs/icons/icons.json`): a tag's icon must
 * be one of them, or every page that shows the tag logs an error (issue 14 item 22). Node only:
 * the list stays out of the browser bundle.
 */
export const BLUEPRINT_ICON_NAMES: ReadonlySet<string> = new Set((icons as Array<{ iconName: string }>).map((i) => i.iconName));
