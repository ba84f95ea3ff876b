// The tabs of PBX > Settings: each tab is its own page (links, so every tab has an address and
// works without script), the current one marked for assistive technology.
import { type Html, html } from './html.js';

/** The tabs, in order: the seed's Extra Configurations (the CDR API) first. */
export const SETTINGS_TABS: ReadonlyArray<{ label: string; path: string }> = [
  { label: 'Extra Configurations', path: '/pbx/settings' },
  { label: 'Ingest sources', path: '/pbx/settings/ingest' },
  { label: 'System', path: '/pbx/settings/system' },
];

/** The tab bar with `current` marked. */
export function settingsTabs(current: string): Html {
  return html`<nav class="tabs" aria-label="Settings">
  <ul>${SETTINGS_TABS.map(
    (t) =>
      html`<li><a href="${t.path}"${t.path === current ? html` aria-current="page"` : ''}>${t.label}</a></li>`,
  )}</ul>
</nav>`;
}
