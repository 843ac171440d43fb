export * from './plugin-discovery';
export * from './licence-verifier';
