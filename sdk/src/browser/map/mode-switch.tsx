import type { ReactElement } from 'react';
import { Button, ButtonGroup } from '@blueprintjs/core';
import { useT } from '@werkbank/kernel/browser';
import type { MapMode } from './map-types';

const MODES: MapMode[] = ['2d', '3d', 'columbus'];

/**
 * The map's scene mode switch: flat map, globe, Columbus view. Buttons in a labelled group, so
 * it works by keyboard (Tab, Enter/Space) and says which mode is on (aria-pressed); the short
 * text is the name (WCAG 2.5.3), the tooltip says it in words.
 */
export function ModeSwitch({ mode, onChange }: { mode: MapMode; onChange(mode: MapMode): void }): ReactElement {
  const t = useT();
  return (
    <ButtonGroup
      className="wb-map-mode"
      role="group"
      aria-label={String(t('map.mode'))}
      style={{ position: 'absolute', top: 8, left: 8, zIndex: 1 }}
    >
      {MODES.map((m) => (
        <Button
          key={m}
          text={t(`map.mode_${m}`)}
          title={String(t(`map.mode_${m}_name`))}
          aria-pressed={mode === m}
          active={mode === m}
          data-testid={`map-mode-${m}`}
          onClick={() => mode !== m && onChange(m)}
        />
      ))}
    </ButtonGroup>
  );
}
