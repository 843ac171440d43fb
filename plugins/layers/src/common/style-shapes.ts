import type { BillboardIcon, MarkName } from './style-model';

/**
 * The outlines of the marks and the ten billboard icons as SVG paths in a 24×24 box (even-odd
 * fill), drawn by the legend (SVG), the map preview (canvas) and later the WMS renderer.
 */
export const SHAPE_PATHS: Record<MarkName | BillboardIcon, string> = {
  circle: 'M12 3a9 9 0 1 0 0.001 0z',
  square: 'M4 4h16v16H4z',
  triangle: 'M12 3l10 18H2z',
  star: 'M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5-6.5 4.5 2-7.5L2 9h7z',
  cross: 'M9 2h6v7h7v6h-7v7H9v-7H2V9h7z',
  x: 'M5 2l7 7 7-7 3 3-7 7 7 7-3 3-7-7-7 7-3-3 7-7-7-7z',
  marker: 'M12 2C8 2 5 5 5 9c0 5 7 13 7 13s7-8 7-13c0-4-3-7-7-7zM12 6.5a2.5 2.5 0 1 0 .001 0z',
  flag: 'M5 2h2v20H5zM7 3h12l-3 4 3 4H7z',
  home: 'M12 3l10 9h-3v9h-5v-6h-4v6H5v-9H2z',
  info: 'M12 2a10 10 0 1 0 .001 0zM11 10h2v8h-2zM11 6h2v2h-2z',
  warning: 'M12 2l11 20H1zM11 9h2v6h-2zM11 17h2v2h-2z',
  camera: 'M3 7h5l2-3h4l2 3h5v13H3zM12 9.5a4 4 0 1 0 .001 0z',
};
