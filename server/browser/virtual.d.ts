declare module 'virtual:werkbank-plugins' {
  const plugins: unknown[];
  export default plugins;
}
declare module '*.css';
