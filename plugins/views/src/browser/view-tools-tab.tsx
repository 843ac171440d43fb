import { useState } from '@werkbank/sdk/react';
import { Callout, InputGroup, Switch } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { VIEWER_TOOLS, toolEnabled } from '../common/view-tools';
import type { ViewConfig } from '../common/view-tree';

/** The Tools tab (spec 002 §2): the viewer's tools with a search bar; each one switched on or off for the view. */
export function ViewToolsTab({
  config,
  readOnly,
  onChange,
}: {
  config: ViewConfig;
  readOnly: boolean;
  onChange(c: ViewConfig): void;
}) {
  const t = useT('views');
  const [q, setQ] = useState('');
  const shown = VIEWER_TOOLS.filter((tool) =>
    String(t(`tools.${tool}`))
      .toLowerCase()
      .includes(q.trim().toLowerCase()),
  );
  return (
    <div data-testid="view-tools">
      <InputGroup
        leftIcon="search"
        aria-label={String(t('tools.search'))}
        placeholder={String(t('tools.search'))}
        value={q}
        onValueChange={setQ}
      />
      {!shown.length && <Callout>{t('tools.none')}</Callout>}
      {shown.map((tool) => (
        <Switch
          key={tool}
          label={String(t(`tools.${tool}`))}
          disabled={readOnly}
          checked={toolEnabled(config, tool)}
          onChange={(e) =>
            onChange({
              ...config,
              tools: {
                ...config.tools,
                [tool]: { ...((config.tools?.[tool] as object) ?? {}), enabled: e.currentTarget.checked },
              },
            })
          }
        />
      ))}
    </div>
  );
}
