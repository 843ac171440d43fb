/** The switchboards' test kit for other plugins' suites (`@werkbank/plugin-switchboards/testing`): canvases, runs, frame uploads. */
export * from './switchboard-support';
export * from './frame-upload-support';
