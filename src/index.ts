// The library surface of the `branchgate` package (import from 'branchgate'): run the whole server
// in-process, or build its Fastify app on a store of your own. The client SDK is
// 'branchgate/client'; the geo compilers, readers and matchers are 'branchgate/geo'.
export {
  type AppOptions,
  type BuiltApp,
  buildApp,
  type RunningServer,
  resolveServeConfig,
  type ServeConfig,
  type ServeFlags,
  startServer,
} from './server/index.js';
export { VERSION } from './shared/version.js';
export { openStore, type Store, type StoreKind } from './store/index.js';
