/** @werkbank/sdk/ui: the Blueprint widgets (core and table) every screen builds on — one shared copy. */
export * from '@blueprintjs/core';
export { Table2, Column, Cell, EditableCell2, ColumnHeaderCell, type CellRenderer } from '@blueprintjs/table';
