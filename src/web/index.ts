// The admin console (server-rendered HTML, no build step): src/server registers consoleRoutes.
export { CONSOLE_SECURITY_HEADERS, type ConsoleDeps, consoleRoutes } from './console-routes.js';
export { EXTRA_CONFIGURATIONS_PATH, EXTRA_CONFIGURATIONS_TITLE } from './extra-configurations-page.js';
export { escapeHtml, Html, type HtmlValue, html } from './html.js';
