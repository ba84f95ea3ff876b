// The admin console's routes: GET /login, GET / and the console pages (server-rendered HTML; a
// request without an admin session is sent to /login and back), and the static CSS/JS files.
// Pages only read; every change goes through the JSON REST API from the page's script, so the
// console has exactly the API's validation and the API's CSRF defence (docs/console.md).

import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { listExtensions, listTokens, listUsers, type UserInfo } from '../auth/index.js';
import type { StoredIngestSources } from '../cdr/ingest/live/stored-sources.js';
import {
  backlogOf,
  countParked,
  findCdrPushSettings,
  listDeliveryLog,
  listDestinations,
  loadCdrPushSettings,
  readPushState,
  settingsView,
} from '../cdr/push/index.js';
import { isAlerting } from '../cdr/push/push-alert.js';
import type { GeoService } from '../geo/index.js';
import type { AppDeps } from '../server/deps.js';
import { sendError } from '../server/error-catalogue.js';
import { certificateView, type ServedCertificate } from '../server/tls-certificate.js';
import type { SmsGateway } from '../sms/index.js';
import { listWebhooks } from '../webhooks/webhook-store.js';
import { CDR_PAGE_PATH, cdrPage } from './cdr-page.js';
import { cdrPageData, dashboardData, smsPageData } from './console-data.js';
import { dashboardPage } from './dashboard-page.js';
import { EXTENSIONS_PATH, extensionsPage } from './extensions-page.js';
import {
  EXTRA_CONFIGURATIONS_PATH,
  type ExtraConfigurationsData,
  extraConfigurationsPage,
  notAdminPage,
  OLD_EXTRA_CONFIGURATIONS_PATH,
} from './extra-configurations-page.js';
import { GEO_PAGE_PATH, geoPage } from './geo-page.js';
import { ASSET_PREFIX } from './layout.js';
import { loginPage } from './login-page.js';
import { ingestSettingsPage, systemSettingsPage } from './settings-pages.js';
import { SMS_PAGE_PATH, smsPage } from './sms-page.js';
import { USERS_PATH, usersPage } from './users-page.js';
import { WEBHOOKS_PATH, webhooksPage } from './webhooks-page.js';

/** What the console needs from the app. */
export type ConsoleDeps = Pick<AppDeps, 'store' | 'sessionUser' | 'clock' | 'timeZone' | 'ingest'> & {
  /** The SMS service, when the server runs a modem. */
  sms?: SmsGateway | undefined;
  /** Run-time ingest sources (serve only). */
  ingestSources?: StoredIngestSources | undefined;
  /** The certificate served, for the System tab (shown, and replaced through /api/tls/certificate). */
  certificate?: ServedCertificate | undefined;
  /** The geo lookup service (serve only). */
  geo?: GeoService | undefined;
};

/** How many delivery attempts the page lists. */
export const ATTEMPTS_SHOWN = 50;

/** Headers of every console response: scripts and styles only from our own files, no framing. */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

// Pages a login may return to; anything else in ?next= is ignored (no open redirect).
const PAGES = new Set([
  '/',
  EXTRA_CONFIGURATIONS_PATH,
  EXTENSIONS_PATH,
  USERS_PATH,
  CDR_PAGE_PATH,
  SMS_PAGE_PATH,
  GEO_PAGE_PATH,
  WEBHOOKS_PATH,
]);

const ASSETS: Record<string, string> = {
  'console.css': 'text/css; charset=utf-8',
  'login.js': 'text/javascript; charset=utf-8',
  'extra-configurations.js': 'text/javascript; charset=utf-8',
  'extensions.js': 'text/javascript; charset=utf-8',
  'users.js': 'text/javascript; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'sms.js': 'text/javascript; charset=utf-8',
  'settings-ingest.js': 'text/javascript; charset=utf-8',
  'geo.js': 'text/javascript; charset=utf-8',
  'settings-system.js': 'text/javascript; charset=utf-8',
  'webhooks.js': 'text/javascript; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};

function loadAssets(): Map<string, { type: string; body: string }> {
  const out = new Map<string, { type: string; body: string }>();
  for (const [name, type] of Object.entries(ASSETS)) {
    out.set(name, { type, body: readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8') });
  }
  return out;
}

const sendHtml = (reply: FastifyReply, page: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(page);

/** The console as a Fastify plugin (its security headers stay inside it). */
export function consoleRoutes(deps: ConsoleDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const assets = loadAssets();

    app.addHook('onSend', async (_request, reply, payload) => {
      reply.headers(CONSOLE_SECURITY_HEADERS);
      return payload;
    });

    // The admin of a page request, or null after answering it (redirect to login, or 403).
    const adminOf = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
      const user = await deps.sessionUser(request);
      if (!user) {
        await reply.redirect(`/login?next=${encodeURIComponent(path)}`, 303);
        return null;
      }
      if (!user.isAdmin) {
        await sendHtml(reply, notAdminPage(user.username), 403);
        return null;
      }
      return user;
    };

    app.get<{ Querystring: { next?: string } }>('/login', async (request, reply) => {
      const asked = request.query.next;
      const next = typeof asked === 'string' && PAGES.has(asked) ? asked : EXTRA_CONFIGURATIONS_PATH;
      const user = await deps.sessionUser(request);
      if (user?.isAdmin) return reply.redirect(next, 303);
      return sendHtml(reply, loginPage(next));
    });

    app.get('/', async (request, reply) => {
      const user = await adminOf(request, reply, '/');
      if (!user) return reply;
      return sendHtml(reply, dashboardPage(await dashboardData(deps, user)));
    });

    app.get(OLD_EXTRA_CONFIGURATIONS_PATH, async (_request, reply) =>
      reply.redirect(EXTRA_CONFIGURATIONS_PATH, 301),
    );

    app.get('/pbx/settings/ingest', async (request, reply) => {
      const user = await adminOf(request, reply, '/pbx/settings/ingest');
      if (!user) return reply;
      const sources = deps.ingestSources ? await deps.ingestSources.list() : null;
      return sendHtml(reply, ingestSettingsPage(user.username, sources, deps.ingest.statuses()));
    });

    app.get('/pbx/settings/system', async (request, reply) => {
      const user = await adminOf(request, reply, '/pbx/settings/system');
      if (!user) return reply;
      return sendHtml(
        reply,
        systemSettingsPage(
          user.username,
          deps.timeZone,
          certificateView(deps.certificate?.current()),
          deps.certificate?.replaceable() ?? false,
        ),
      );
    });

    app.get(EXTENSIONS_PATH, async (request, reply) => {
      const user = await adminOf(request, reply, EXTENSIONS_PATH);
      if (!user) return reply;
      return sendHtml(reply, extensionsPage(user.username, await listExtensions(deps.store)));
    });

    app.get(USERS_PATH, async (request, reply) => {
      const user = await adminOf(request, reply, USERS_PATH);
      if (!user) return reply;
      const [users, tokens] = await Promise.all([listUsers(deps.store), listTokens(deps.store)]);
      return sendHtml(reply, usersPage(user.username, users, tokens));
    });

    app.get(SMS_PAGE_PATH, async (request, reply) => {
      const user = await adminOf(request, reply, SMS_PAGE_PATH);
      if (!user) return reply;
      return sendHtml(reply, smsPage(await smsPageData(deps, user)));
    });

    app.get(WEBHOOKS_PATH, async (request, reply) => {
      const user = await adminOf(request, reply, WEBHOOKS_PATH);
      if (!user) return reply;
      return sendHtml(reply, webhooksPage(user.username, await listWebhooks(deps.store)));
    });

    app.get(GEO_PAGE_PATH, async (request, reply) => {
      const user = await adminOf(request, reply, GEO_PAGE_PATH);
      if (!user) return reply;
      return sendHtml(reply, geoPage(user.username, deps.geo ? deps.geo.status() : null));
    });

    app.get(CDR_PAGE_PATH, async (request, reply) => {
      const user = await adminOf(request, reply, CDR_PAGE_PATH);
      if (!user) return reply;
      return sendHtml(
        reply,
        cdrPage(await cdrPageData(deps, user, request.query as Record<string, unknown>)),
      );
    });

    app.get(EXTRA_CONFIGURATIONS_PATH, async (request, reply) => {
      const user = await adminOf(request, reply, EXTRA_CONFIGURATIONS_PATH);
      if (!user) return reply;
      const asked = (request.query as Record<string, unknown>).destination;
      const destination = asked === undefined ? 1 : Number(asked);
      if (
        !Number.isSafeInteger(destination) ||
        destination < 1 ||
        !(await findCdrPushSettings(deps.store, destination))
      )
        return sendError(reply, 'not_found', `destination: there is no push destination ${String(asked)}`);
      return sendHtml(reply, extraConfigurationsPage(await pageData(deps, user, destination)));
    });

    app.get<{ Params: { name: string } }>(`${ASSET_PREFIX}/:name`, async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) return sendError(reply, 'not_found', `no console file ${request.params.name}`);
      return reply.type(asset.type).send(asset.body);
    });
  };
}

async function pageData(
  deps: ConsoleDeps,
  user: UserInfo,
  destination: number,
): Promise<ExtraConfigurationsData> {
  const [settings, state, attempts, parked, all] = await Promise.all([
    loadCdrPushSettings(deps.store, destination),
    readPushState(deps.store.db, destination),
    listDeliveryLog(deps.store, ATTEMPTS_SHOWN, destination),
    countParked(deps.store, destination),
    listDestinations(deps.store),
  ]);
  const now = deps.clock.now();
  const destinations = await Promise.all(
    all.map(async (d) => {
      const st = await readPushState(deps.store.db, d.id);
      return {
        id: d.id,
        name: d.settings.name,
        url: d.settings.url,
        enabled: d.settings.enabled,
        backlog: await backlogOf(deps.store, st),
        failingSinceMs: st.failingSinceMs,
        alert: isAlerting(d.settings, st.failingSinceMs, now),
        parked: await countParked(deps.store, d.id),
      };
    }),
  );
  return {
    username: user.username,
    destination,
    destinations,
    settings: settingsView(settings),
    status: {
      enabled: settings.enabled,
      lastAcknowledgedDbId: state.ackedDbId,
      backlog: await backlogOf(deps.store, state),
      failingSinceMs: state.failingSinceMs,
      lastSuccessMs: state.lastSuccessMs,
      parked,
      attempts,
    },
  };
}
