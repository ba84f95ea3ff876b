// The server area: the app builder, the serve lifecycle, configuration and the error catalogue.
export { type AppOptions, type BuiltApp, buildApp } from './app.js';
export { parseListen, resolveServeConfig, type ServeConfig, type ServeFlags } from './config.js';
export type { AppDeps, Guard } from './deps.js';
export { httpStatusOf, sendError } from './error-catalogue.js';
export { type RunningServer, type Service, startServer } from './server.js';
