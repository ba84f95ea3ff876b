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
  /** The logged-in user's name; shows the logout button. */
  username?: string;
  body: Html;
}

/** A whole HTML document. */
export function layout(o: LayoutOptions): string {
  const script = o.script ? html`<script src="${ASSET_PREFIX}/${o.script}" defer></script>` : '';
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
<main>
${o.body}
</main>
</body>
</html>
`.text;
}
