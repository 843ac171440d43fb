/**
 * @werkbank/sdk/canvas: Rete.js v2 for the switchboard canvas and node renderers — one shared copy
 * (STYLE §14). Connection checks are not Rete's: the canvas asks the server's assignability rules.
 */
export { NodeEditor, ClassicPreset, Scope, type GetSchemes, type BaseSchemes, type Root } from 'rete';
export { AreaPlugin, AreaExtensions, type Area2D } from 'rete-area-plugin';
export { ConnectionPlugin, Presets as ConnectionPresets, type SocketData } from 'rete-connection-plugin';
export { ReactPlugin, Presets as ReactPresets, type ReactArea2D } from 'rete-react-plugin';
/** For socket position watchers of our own (the switchboard canvas measures its sockets in batches). */
export { BaseSocketPosition, classicConnectionPath } from 'rete-render-utils';
/** React roots for the canvas renderer (rete-react-plugin renders each node into its own root). */
export { createRoot } from 'react-dom/client';
/** The canvas draws Rete's views as portals of one React tree (plugins/switchboards, canvas-portals). */
export { createPortal } from 'react-dom';
