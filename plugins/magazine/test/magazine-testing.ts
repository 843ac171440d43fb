/** The Magazine's test kit for other plugins' suites (`@werkbank/plugin-magazine/testing`): depots, datums, uploads. */
export * from './magazine-support';
export * from './magazine-upload-support';
