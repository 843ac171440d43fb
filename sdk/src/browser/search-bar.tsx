import { useEffect, useRef, type ReactNode } from 'react';
import { Button, ButtonGroup, InputGroup, PopoverNext, Menu, MenuItem, MenuDivider, Tooltip } from '@blueprintjs/core';
import { useT } from '@werkbank/kernel/browser';

export type Presentation = 'cards' | 'table';

/** spec 000 §2: the search field takes focus 10 ms after mounting. */
export const SEARCH_AUTOFOCUS_DELAY_MS = 10;

export interface SearchBarProps {
  value: string;
  onChange(value: string): void;
  /** Enter, reset and Escape submit the current text. */
  onSubmit(value: string): void;
  presentation?: Presentation;
  onPresentationChange?(p: Presentation): void;
  favoritesOnly?: boolean;
  onFavoritesChange?(on: boolean): void;
  showSystemTags?: boolean;
  onShowSystemTagsChange?(on: boolean): void;
  /** Entries of the multi-select menu, shown when something is selected. */
  selectionMenu?: ReactNode;
  selectedCount?: number;
  onSelectAll?(): void;
  onClearSelection?(): void;
  autoFocus?: boolean;
  children?: ReactNode;
}

/**
 * The search bar of spec 000 §2: text, reset, system-tags toggle, favourites toggle, card/table
 * toggle and a multi-select menu. Escape clears and blurs, Enter submits.
 */
export function SearchBar(props: SearchBarProps) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (props.autoFocus === false) return;
    const timer = setTimeout(() => input.current?.focus(), SEARCH_AUTOFOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [props.autoFocus]);
  const selected = props.selectedCount ?? 0;
  return (
    <div className="wb-searchbar" role="search">
      <InputGroup
        className="wb-search-input"
        inputRef={input}
        leftIcon="search"
        placeholder={String(t('common.search'))}
        value={props.value}
        data-testid="search-input"
        onValueChange={props.onChange}
        onKeyDown={(e) => {
          if (e.key === 'Enter') props.onSubmit(props.value);
          if (e.key === 'Escape') {
            props.onChange('');
            props.onSubmit('');
            input.current?.blur();
          }
        }}
        rightElement={
          props.value ? (
            <Button
              icon="cross"
              variant="minimal"
              aria-label={String(t('common.reset'))}
              onClick={() => {
                props.onChange('');
                props.onSubmit('');
              }}
            />
          ) : undefined
        }
      />
      {props.onShowSystemTagsChange && (
        <Tooltip content={String(t('common.system_tags'))}>
          <Button
            icon="tag"
            active={props.showSystemTags}
            aria-pressed={!!props.showSystemTags}
            aria-label={String(t('common.system_tags'))}
            onClick={() => props.onShowSystemTagsChange!(!props.showSystemTags)}
          />
        </Tooltip>
      )}
      {props.onFavoritesChange && (
        <Tooltip content={String(t('common.favorites'))}>
          <Button
            icon={props.favoritesOnly ? 'star' : 'star-empty'}
            active={props.favoritesOnly}
            aria-pressed={!!props.favoritesOnly}
            aria-label={String(t('common.favorites'))}
            data-testid="favorites-toggle"
            onClick={() => props.onFavoritesChange!(!props.favoritesOnly)}
          />
        </Tooltip>
      )}
      {props.onPresentationChange && (
        <ButtonGroup>
          <Button
            icon="grid-view"
            aria-label={String(t('common.cards'))}
            active={props.presentation === 'cards'}
            onClick={() => props.onPresentationChange!('cards')}
          />
          <Button
            icon="th"
            aria-label={String(t('common.table'))}
            active={props.presentation === 'table'}
            data-testid="presentation-table"
            onClick={() => props.onPresentationChange!('table')}
          />
        </ButtonGroup>
      )}
      {(props.selectionMenu || props.onSelectAll) && (
        <PopoverNext
          placement="bottom-end"
          content={
            <Menu>
              {props.onSelectAll && <MenuItem icon="select" text={t('common.select_all')} onClick={props.onSelectAll} />}
              {props.onClearSelection && (
                <MenuItem icon="disable" text={t('common.select_none')} disabled={!selected} onClick={props.onClearSelection} />
              )}
              {props.selectionMenu && <MenuDivider />}
              {props.selectionMenu}
            </Menu>
          }
        >
          <Button
            icon="multi-select"
            endIcon="caret-down"
            data-testid="selection-menu"
            // WCAG 2.5.3: the visible count is part of the button's name.
            aria-label={
              selected
                ? `${String(t('common.selected', { count: selected }))} – ${String(t('common.selection'))}`
                : String(t('common.selection'))
            }
            text={selected ? t('common.selected', { count: selected }) : undefined}
          />
        </PopoverNext>
      )}
      {props.children}
    </div>
  );
}
