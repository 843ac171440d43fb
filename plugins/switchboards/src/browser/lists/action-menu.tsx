import type { ReactNode } from '@werkbank/sdk/react';
import { Button, Menu, PopoverNext } from '@werkbank/sdk/ui';

/**
 * A '⋯' button opening a menu, for cards and rows that open on click themselves: clicks on the
 * button and in the menu stop here, so they neither open the card nor keep the popover from opening.
 */
export function ActionMenu({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <span onClick={(e) => e.stopPropagation()} onDoubleClick={(e) => e.stopPropagation()}>
      <PopoverNext content={<Menu>{children}</Menu>}>
        <Button size="small" variant="minimal" icon="more" aria-label={label} data-testid={testId} />
      </PopoverNext>
    </span>
  );
}
