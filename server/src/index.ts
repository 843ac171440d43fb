/**
 * @werkbank/server: the host. Starts Werkbank (WerkbankServer), reads its configuration, finds and
 * loads plugins. Plugins never import it (they use @werkbank/sdk); the test harness and tools do.
 */
export * from './config';
export * from './werkbank-server';
export { CORE_SERVICE_TOKENS, type CoreServices } from './core-services-module';
export { choosePlugins, loadNodePlugins, hostSdkVersion, type PluginLoadOptions } from './plugin-loading';
export { SHARED_PACKAGES } from './shared-packages';
export { AccountService } from './auth/account-service';
export { FileBlobStore } from './blob/file-blob-store';
export { sniffMime, SNIFF_BYTES } from './blob/sniff-mime';
export { GuardedFetcher, type GuardedFetcherOptions, type HostResolver } from './net/guarded-fetcher';
export { AjvDatumValidator } from './types/ajv-datum-validator';
export { ApiCallRecorder, API_STATS_ACCURACY, type ApiCallKey } from './stats/api-call-recorder';
export { DDSketch } from './stats/dd-sketch';
export { apiStatsMiddleware } from './stats/api-stats-middleware';
