/**
 * What the Magazine's browser side offers other plugins: the depot path editor (also the datum
 * editor of content type `depot`), the depot folder select, the datum card menu id and the shapes.
 */
export { DepotPathEditor } from './depot-path-editor';
export { DepotFolderSelect, type DepotFolderSelectProps } from './depot-folder-select';
export { FolderTreeStore } from './folder-tree-store';
export { UploadTransport, type UploadPart, type UploadReply } from './upload-transport';
export * from '../common/magazine-ids';
export * from '../common/magazine-types';
export { splitDepotPath, joinDepotPath, type DepotPath } from '../common/depot-path';
