// The page shell every console page shares: head with the one stylesheet and the page's one
// script, a header with the product name and (when logged in) the user and a logout button.
import { type Html, html } from './html.js';

/** Where the console's static files are served from. */
export const ASSET_PREFIX = '/console/assets';

/** What a page shell needs. */
export interface LayoutOptions {
  /** The document title. */
  title: string;
  /** The page's script file name under ASSET_PREFIX, if it has one. */
  script?: string;
  /** The page's script uses the shared helpers of console.js (`bg`), which then loads first. */
  sharedHelpers?: boolean;
  /** The logged-in user's name; shows the logout button. */
  username?: string;
  body: Html;
  /** The path of the page, to mark its menu entry (menus show only when logged in). */
  path?: string;
}

/** The console's menu: section, then its pages (paths are part of the contract, DESIGN.md §10). */
export const MENU: ReadonlyArray<{ section: string; pages: ReadonlyArray<{ label: string; path: string }> }> =
  [
    { section: 'Overview', pages: [{ label: 'Dashboard', path: '/' }] },
    {
      section: 'PBX',
      pages: [
        { label: 'Extensions', path: '/pbx/extensions' },
        { label: 'Call records', path: '/pbx/cdr' },
        { label: 'Settings', path: '/pbx/settings' },
      ],
    },
    { section: 'LTE', pages: [{ label: 'SMS', path: '/lte/sms' }] },
    { section: 'Routing', pages: [{ label: 'Geo', path: '/routing/geo' }] },
    {
      section: 'System',
      pages: [
        { label: 'Users', path: '/system/users' },
        { label: 'Webhooks', path: '/system/webhooks' },
      ],
    },
  ];

function menu(current: string | undefined): Html {
  return html`<nav class="menu" aria-label="Console">
  <ul>${MENU.map(
    (m) =>
      html`<li><span class="section">${m.section}</span><ul>${m.pages.map(
        (p) =>
          html`<li><a href="${p.path}"${p.path === current ? html` aria-current="page"` : ''}>${p.label}</a></li>`,
      )}</ul></li>`,
  )}</ul>
</nav>`;
}

/** A whole HTML document. */
export function layout(o: LayoutOptions): string {
  // A page's own script handles its logout button; pages without one get the shared console.js.
  const file = o.script ?? (o.username ? 'console.js' : undefined);
  const shared =
    o.sharedHelpers && o.script ? html`<script src="${ASSET_PREFIX}/console.js" defer></script>` : '';
  const script = file ? html`${shared}<script src="${ASSET_PREFIX}/${file}" defer></script>` : '';
  const user = o.username
    ? html`<div class="user">
        <span>Logged in as <strong>${o.username}</strong></span>
        <button type="button" id="logout">Log out</button>
      </div>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} - branchgate</title>
<link rel="icon" href="${ASSET_PREFIX}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${ASSET_PREFIX}/console.css">
${script}
</head>
<body>
<header class="top">
  <a class="brand" href="/">branchgate</a>
  ${user}
</header>
${o.username ? menu(o.path) : ''}
<main>
${o.body}
</main>
</body>
</html>
`.text;
}
