declare module 'virtual:werkbank-plugins' {
  const plugins: unknown[];
  export default plugins;
}
declare module '*.css';
declare module 'virtual:werkbank-viewer' {
  const start: (root: HTMLElement) => void | Promise<void>;
  export default start;
}
