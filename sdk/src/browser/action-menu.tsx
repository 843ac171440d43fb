import type { ReactNode } from 'react';
import { Button, Menu, PopoverNext } from '@blueprintjs/core';

export interface ActionMenuProps {
  /** The button's accessible name (e.g. 'Folder menu'), in the screen's language. */
  label: string;
  testId?: string;
  /** The menu's entries (MenuItem, MenuDivider). */
  children: ReactNode;
}

/**
 * A '⋯' button opening a menu, for cards and rows that open on click themselves: clicks on the
 * button and in the menu stop at this element, so they neither reach the card nor keep the
 * popover (whose handlers sit on the wrapper around the button) from opening.
 */
export function ActionMenu({ label, testId, children }: ActionMenuProps) {
  return (
    <span onClick={(e) => e.stopPropagation()} onDoubleClick={(e) => e.stopPropagation()}>
      <PopoverNext content={<Menu>{children}</Menu>}>
        <Button size="small" variant="minimal" icon="more" aria-label={label} data-testid={testId} />
      </PopoverNext>
    </span>
  );
}
