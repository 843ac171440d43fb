/** @werkbank/sdk/browser: contribution points, services and UI building blocks for a plugin's browser entry. */
export * from '@werkbank/kernel/browser';
export { injectable, inject, optional, postConstruct, multiInject } from 'inversify';
export { ResourceListStore, IS_LOADING, type ListObject, type ListQuery } from './resource-list-store';
export { SearchBar, SEARCH_AUTOFOCUS_DELAY_MS, type Presentation, type SearchBarProps } from './search-bar';
export { ObjectList, columnWidths, type ListColumn, type ObjectListProps } from './object-list';
export { useInfiniteScroll, INFINITE_SCROLL_THRESHOLD_PX, INFINITE_SCROLL_THROTTLE_MS } from './infinite-scroll';
export { AddonNotice, Licensed } from './addon-notice';
export { TagChips, type TagRef } from './tag-chips';
export { RealmTagList } from './realm-tag-list';
export { TagAssignMenuItems, ObjectTags, useAssignableTags } from './tag-assign';
export { ObjectEditorHost } from './object-editor-host';
export { useObjectActions, type ObjectActions } from './object-actions';
export { UserSelect, useUsers, type UserOption } from './user-select';
export { DatumEditorHost, type DatumEditorHostProps } from './datum-editor-host';
export { useTypeTemplate } from './use-type-template';
export {
  PermissionsEditor,
  completePermissions,
  useGroups,
  type GroupOption,
  type PermissionsEditorProps,
} from './permissions-editor';
export { PublicationPermissions } from './publication-permissions';
export { ObjectEvents, OBJECT_EVENTS_LIMIT } from './object-events';
export { useObjectNames } from './object-names';
export { RecentlyUsedList, useRecentlyUsed, type RecentEntry } from './recently-used';
export { useBulkAction } from './bulk-action';
export { RecentlyUsedBar, type RecentlyUsedBarProps } from './recently-used-bar';
export { XhrUploadTransport, replyError, type UploadPart, type UploadReply, type UploadTransport } from './upload-transport';
export {
  UploadQueue,
  UPLOAD_LIMIT_BYTES,
  type UploadFile,
  type UploadItem,
  type UploadQueueOptions,
  type UploadRefusal,
  type UploadStatus,
} from './upload-queue';
export { FileDropZone, type FileDropZoneProps } from './file-drop-zone';
export { ImageDropZone, isImageAddress, type ImageDropZoneProps } from './image-drop-zone';
export { UploadItemList, type UploadItemListProps } from './upload-item-list';
export { formatBytes } from '../common/byte-size';
export { ActionMenu, type ActionMenuProps } from './action-menu';
export { ObjectSearchPicker, PICKER_DEBOUNCE_MS, type ObjectSearchPickerProps, type PickedObject } from './object-search-picker';
export { ContributedMenuItems, type ContributedMenuItemsProps } from './contributed-menu-items';
export { FolderEntries, type FolderEntriesProps, type FolderEntry } from './folder-entries';
export { useEditorSave } from './use-editor-save';
export { EditorFooter, type EditorFooterProps } from './editor-footer';
export { EditorDialog, type EditorDialogProps } from './editor-dialog';
export { observer } from 'mobx-react-lite';
export { makeAutoObservable, runInAction, observable, action, computed, reaction, type IReactionDisposer } from 'mobx';
export { MapView } from './map/map-view';
export type { MapViewProps, MapFeatureStyle, MapFeatureStyler, MapMode } from './map/map-types';
