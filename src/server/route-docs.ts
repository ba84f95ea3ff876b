// The API's schemas for OpenAPI, by route: tags, summary, who may call, and answer schemas. An
// onRoute hook (installRouteDocs) attaches them to each route as it is registered, beside the
// request schemas the route declares itself, so the one schema a route runs with is the one
// /openapi.json shows. Answer schemas drive serialization too: objects stay open and only certain
// types are typed (api-docs.ts). Request bodies of routes that check their own input are
// described (examples), not validated here, so their refusals keep their words.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ADMIN, ADMIN_ERRORS, doc, ERROR, NONE, open, PULL } from './api-docs.js';
import { isApiPath } from './openapi.js';

interface RouteDoc {
  schema: Record<string, unknown>;
}

const STR = { type: 'string' };
const INT = { type: 'integer' };
const BOOL = { type: 'boolean' };
const ANY_ARRAY = { type: 'array', items: {} };

const SMS_AUTH =
  'A POST with a JSON body whose `auth` is the admin password (the device API style); an admin session or an API token with the `sms` scope may stand in for `auth`.';
const smsEnvelope = (data: unknown) => open({ status: { type: 'string', enum: ['success'] }, data });
const SMS_ERROR = open({
  status: { type: 'string', enum: ['error'] },
  error: open({ code: STR, message: STR }),
});
const SMS_ERRORS = { 400: SMS_ERROR, 401: SMS_ERROR, 404: SMS_ERROR, 415: SMS_ERROR, 503: SMS_ERROR };
const SMS_MESSAGE = open({
  id: STR,
  type: { type: 'string', enum: ['sent', 'received'] },
  number: STR,
  message: STR,
  date: STR,
  timestamp: STR,
  status: STR,
  parts: INT,
  encoding: STR,
  error: STR,
  incomplete: BOOL,
  reference: INT,
  number_typed: STR,
  data_hex: STR,
});
// Described, not validated: the SMS routes check their bodies themselves, in their own words.
const smsBody = (props: Record<string, unknown>, example: Record<string, unknown>) => ({
  properties: { auth: { description: 'the admin password' }, ...props },
  examples: [example],
});

const LIST = (item: Record<string, unknown>) => open({ data: { type: 'array', items: item } });
const EXTENSION = open({ number: STR, name: STR, cdr_access: BOOL });
const USER = open({ username: STR, is_admin: BOOL });
const TOKEN = open({ id: INT, name: STR, prefix: STR, scopes: { type: 'array', items: STR } });
const WEBHOOK = open({
  id: INT,
  url: STR,
  events: { type: 'array', items: STR },
  signed: BOOL,
  rotating: BOOL,
});
const CERT = open({
  subject: STR,
  issuer: STR,
  validFrom: STR,
  validTo: STR,
  selfSigned: BOOL,
  fingerprint256: STR,
});
const GEO_STATUS = open({ site: {}, ip: {}, files: ANY_ARRAY, loadedAtMs: {}, reloads: INT, lastError: {} });
const INGEST_SOURCE = open({ id: STR, kind: STR, target: STR, state: STR, recordsStored: INT });
const OK = open({ status: STR });

const body = (props: Record<string, unknown>, example: Record<string, unknown>) => ({
  properties: props,
  examples: [example],
});

const DOCS: Record<string, RouteDoc> = {
  'GET /healthz': {
    schema: { ...doc('System', 'Liveness: 200 while the server answers', NONE), response: { 200: OK } },
  },
  'GET /metrics': {
    schema: {
      ...doc(
        'System',
        'Prometheus metrics (text format 0.0.4)',
        ADMIN,
        'Needs a token with the `metrics` scope (or admin). docs/metrics.md.',
      ),
      response: {
        200: { description: 'Prometheus text format', content: { 'text/plain': { schema: STR } } },
        401: ERROR,
      },
    },
  },
  'POST /api/login': {
    schema: {
      ...doc('Sessions', 'Log in: sets the bg_session cookie', NONE),
      body: body({ username: {}, password: {} }, { username: 'admin', password: 'the-admin-password' }),
      response: { 200: open({ user: USER }), 401: ERROR, 429: ERROR },
    },
  },
  'POST /api/logout': {
    schema: { ...doc('Sessions', 'Log out: ends the session', NONE), response: { 200: OK } },
  },
  'GET /api/me': {
    schema: {
      ...doc('Sessions', 'The logged-in user', [{ session: [] }]),
      response: { 200: open({ user: USER }), 401: ERROR },
    },
  },
  'GET /api/extensions': {
    schema: {
      ...doc('Accounts', 'List extensions', ADMIN),
      response: { 200: LIST(EXTENSION), ...ADMIN_ERRORS },
    },
  },
  'POST /api/extensions': {
    schema: {
      ...doc('Accounts', 'Add an extension (secret given or generated; key and curl shown once)', ADMIN),
      body: body({ number: {}, secret: {}, cdr_access: {} }, { number: '1001', cdr_access: true }),
      response: {
        201: open({ extension: EXTENSION, key: STR, curl: STR, secret: STR }),
        409: ERROR,
        ...ADMIN_ERRORS,
      },
    },
  },
  'PATCH /api/extensions/:number': {
    schema: {
      ...doc('Accounts', 'Change an extension: name, CDR Access, secret (or regenerate it)', ADMIN),
      response: { 200: open({ extension: EXTENSION, key: STR, curl: STR }), 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'DELETE /api/extensions/:number': {
    schema: {
      ...doc('Accounts', 'Delete an extension', ADMIN),
      response: { 204: { type: 'null' }, 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'GET /api/users': {
    schema: {
      ...doc('Accounts', 'List console users', ADMIN),
      response: { 200: LIST(USER), ...ADMIN_ERRORS },
    },
  },
  'POST /api/users': {
    schema: {
      ...doc('Accounts', 'Add a console user', ADMIN),
      response: { 201: open({ user: USER }), 409: ERROR, ...ADMIN_ERRORS },
    },
  },
  'PATCH /api/users/:username': {
    schema: {
      ...doc(
        'Accounts',
        "Change a user's password or administrator flag (a new password ends their sessions)",
        ADMIN,
      ),
      response: { 200: open({ user: USER }), 404: ERROR, 409: ERROR, ...ADMIN_ERRORS },
    },
  },
  'DELETE /api/users/:username': {
    schema: {
      ...doc('Accounts', 'Delete a user (never the last administrator)', ADMIN),
      response: { 204: { type: 'null' }, 404: ERROR, 409: ERROR, ...ADMIN_ERRORS },
    },
  },
  'GET /api/tokens': {
    schema: {
      ...doc('Accounts', 'List API tokens (never the tokens)', ADMIN),
      response: { 200: LIST(TOKEN), ...ADMIN_ERRORS },
    },
  },
  'POST /api/tokens': {
    schema: {
      ...doc('Accounts', 'Create an API token (shown once)', ADMIN),
      body: body({ name: {}, scopes: {} }, { name: 'crm', scopes: ['cdr:read', 'sms'] }),
      response: { 201: open({ token: STR, info: TOKEN }), ...ADMIN_ERRORS },
    },
  },
  'DELETE /api/tokens/:id': {
    schema: {
      ...doc('Accounts', 'Revoke an API token', ADMIN),
      response: { 200: TOKEN, 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'GET /pbx/cdr/data': {
    schema: {
      ...doc(
        'CDR',
        'Pull call records, a page at a time (the seed contract)',
        PULL,
        'Admin session, `extension` + `key` query parameters, or HTTP Basic (extension:key), where key is the SHA-256 (hex) of the extension secret and the extension has CDR Access. Optional filters: from, to, source, destination, disposition, caller_id, order (docs/api.md).',
      ),
      querystring: {
        properties: {
          page: { description: 'page number, default 1' },
          limit: { description: 'records a page, default 10, at most 1000' },
          extension: { description: 'with key: the extension' },
          key: { description: 'with extension: SHA-256 (hex) of its secret' },
        },
      },
    },
  },
  'GET /pbx/cdr/export': {
    schema: {
      ...doc('CDR', 'Export the filtered records as CSV or JSON (streamed)', ADMIN),
      response: {
        200: { description: 'text/csv or application/json', content: { 'text/csv': { schema: STR } } },
        ...ADMIN_ERRORS,
      },
    },
  },
  'POST /api/sms/get-all': {
    schema: {
      ...doc('SMS', 'Every message of a collection (received or sent)', NONE, SMS_AUTH),
      body: smsBody(
        { type: { description: 'received or sent' } },
        { auth: 'admin-password', type: 'received' },
      ),
      response: { 200: smsEnvelope({ type: 'array', items: SMS_MESSAGE }), ...SMS_ERRORS },
    },
  },
  'POST /api/sms/get-one': {
    schema: {
      ...doc('SMS', 'One message by id', NONE, SMS_AUTH),
      body: smsBody({ type: {}, id: {} }, { auth: 'admin-password', type: 'received', id: '12' }),
      response: { 200: smsEnvelope(SMS_MESSAGE), ...SMS_ERRORS },
    },
  },
  'POST /api/sms/delete-one': {
    schema: {
      ...doc('SMS', 'Delete one message by id', NONE, SMS_AUTH),
      body: smsBody({ type: {}, id: {} }, { auth: 'admin-password', type: 'sent', id: '7' }),
      response: { 200: smsEnvelope(SMS_MESSAGE), ...SMS_ERRORS },
    },
  },
  'POST /api/sms/send-one': {
    schema: {
      ...doc(
        'SMS',
        'Send one message (split and encoded as needed); answers once the modem accepted it or after a bounded wait (queued)',
        NONE,
        `${SMS_AUTH} \`to\`: E.164 (+ or 00), a short code of 3-8 digits, or a national number with serve --sms-default-country-code.`,
      ),
      body: smsBody(
        { to: {}, message: {} },
        { auth: 'admin-password', to: '+15551234567', message: 'Server room at 21C' },
      ),
      response: { 200: smsEnvelope(SMS_MESSAGE), ...SMS_ERRORS },
    },
  },
  'POST /api/sms/split': {
    schema: {
      ...doc('SMS', 'How send-one would split a text: characters, parts, encoding', NONE, SMS_AUTH),
      response: { 200: smsEnvelope(open({ characters: INT, encoding: STR, parts: INT })), ...SMS_ERRORS },
    },
  },
  'POST /api/sms/status': {
    schema: {
      ...doc('SMS', "The modem's health: registration, operator, signal, SIM, storage", NONE, SMS_AUTH),
      response: {
        200: smsEnvelope(open({ modem: STR, state: {}, registration: {}, signal: {} })),
        ...SMS_ERRORS,
      },
    },
  },
  'POST /api/modem-sim/radio': {
    schema: {
      ...doc('Simulator', "Switch the simulated modem's radio and SIM", NONE, SMS_AUTH),
      response: { 200: smsEnvelope(open({})), ...SMS_ERRORS },
    },
  },
  'POST /api/modem-sim/incoming': {
    schema: {
      ...doc('Simulator', 'Make the simulated network deliver a message', NONE, SMS_AUTH),
      response: { 200: smsEnvelope(open({ from: STR, parts: INT, stored: INT })), ...SMS_ERRORS },
    },
  },
  'GET /api/modem/status': {
    schema: {
      ...doc('SMS', "The modem's health (admin); ?refresh=1 polls first", ADMIN),
      response: { 200: open({ modem: STR }), ...ADMIN_ERRORS },
    },
  },
  'GET /api/settings/cdr-push': {
    schema: { ...doc('CDR push', 'The CDR push settings (secrets masked)', ADMIN) },
  },
  'PUT /api/settings/cdr-push': { schema: { ...doc('CDR push', 'Change the CDR push settings', ADMIN) } },
  'GET /api/cdr-push/log': {
    schema: { ...doc('CDR push', 'Status and the newest delivery attempts', ADMIN) },
  },
  'POST /api/cdr-push/replay': {
    schema: {
      ...doc('CDR push', 'Send records again from a db_id', ADMIN),
      response: { 200: open({}), ...ADMIN_ERRORS },
    },
  },
  'GET /api/cdr-push/parked': {
    schema: { ...doc('CDR push', 'Records set aside by the park poison policy (?limit=)', ADMIN) },
  },
  'POST /api/cdr-push/parked/resend': {
    schema: {
      ...doc('CDR push', 'Resend one parked record ({"db_id"}) or all ({"all": true})', ADMIN),
      response: { 200: open({ resent: INT, remaining: INT, error: STR }), ...ADMIN_ERRORS },
    },
  },
  'POST /api/cdr-push/test': {
    schema: {
      ...doc('CDR push', 'Send a test record and show the answer', ADMIN),
      response: { 200: open({}), ...ADMIN_ERRORS },
    },
  },
  'GET /api/cdr-push/destinations': {
    schema: {
      ...doc('CDR push', 'Every push destination with its settings (secrets masked) and status', ADMIN),
      response: { ...ADMIN_ERRORS },
    },
  },
  'POST /api/cdr-push/destinations': {
    schema: {
      ...doc(
        'CDR push',
        'Add a push destination (the settings fields plus name; signing_secret "generate" shows the new secret once)',
        ADMIN,
      ),
      response: { ...ADMIN_ERRORS },
    },
  },
  'GET /api/cdr-push/destinations/:id': {
    schema: {
      ...doc('CDR push', 'One push destination (destination 1 is the CDR API section)', ADMIN),
      response: { 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'PATCH /api/cdr-push/destinations/:id': {
    schema: {
      ...doc('CDR push', "Change a push destination's settings", ADMIN),
      response: { 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'DELETE /api/cdr-push/destinations/:id': {
    schema: {
      ...doc('CDR push', 'Remove a push destination with its cursor, log and parked records (not 1)', ADMIN),
      response: { 204: { type: 'null' }, 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'GET /api/cdr-push/destinations/:id/log': {
    schema: {
      ...doc('CDR push', "A destination's status and newest delivery attempts", ADMIN),
      response: { 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'POST /api/cdr-push/destinations/:id/replay': {
    schema: {
      ...doc('CDR push', 'Send records again to a destination from a db_id', ADMIN),
      response: { 200: open({}), 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'GET /api/cdr-push/destinations/:id/parked': {
    schema: {
      ...doc('CDR push', "A destination's parked records (?limit=)", ADMIN),
      response: { 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'POST /api/cdr-push/destinations/:id/parked/resend': {
    schema: {
      ...doc('CDR push', 'Resend a destination\'s parked records ({"db_id"} or {"all": true})', ADMIN),
      response: { 200: open({ resent: INT, remaining: INT, error: STR }), 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'POST /api/cdr-push/destinations/:id/test': {
    schema: {
      ...doc('CDR push', 'Send a test record to a destination and show the answer', ADMIN),
      response: { 200: open({}), 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'GET /api/ingest/status': {
    schema: {
      ...doc('CDR ingest', 'Every live CDR source with its state', ADMIN),
      response: { 200: open({ sources: { type: 'array', items: INGEST_SOURCE } }), ...ADMIN_ERRORS },
    },
  },
  'GET /api/ingest/sources': {
    schema: {
      ...doc('CDR ingest', 'Live sources kept in the store and given by flags', ADMIN),
      response: { 200: open({ sources: ANY_ARRAY }), ...ADMIN_ERRORS },
    },
  },
  'POST /api/ingest/sources': {
    schema: {
      ...doc('CDR ingest', 'Add a live source (started at once, kept)', ADMIN),
      response: { 201: open({ id: STR, kind: STR }), 409: ERROR, ...ADMIN_ERRORS },
    },
  },
  'DELETE /api/ingest/sources/:id': {
    schema: {
      ...doc('CDR ingest', 'Remove a live source added at run time', ADMIN),
      response: { 204: { type: 'null' }, 404: ERROR, 409: ERROR, ...ADMIN_ERRORS },
    },
  },
  'POST /api/cdr': {
    schema: {
      ...doc(
        'CDR ingest',
        'Store records posted by an exchange (JSON or CSV)',
        [{ session: [] }, { token: [] }],
        'A token with the `cdr:ingest` scope. docs/cdr-ingest.md.',
      ),
      response: { 200: open({ stored: INT, duplicates: INT }), ...ADMIN_ERRORS },
    },
  },
  'POST /api/geo/lookup': {
    schema: {
      ...doc(
        'Geo',
        'The lists each domain or IP address falls in',
        ADMIN,
        'An admin session or a token with the `geo:lookup` scope.',
      ),
      body: body({ queries: {} }, { queries: ['www.google.com', '114.114.114.114'] }),
      response: {
        200: open({
          results: { type: 'array', items: open({ query: STR, codes: { type: 'array', items: STR } }) },
        }),
        503: ERROR,
        ...ADMIN_ERRORS,
      },
    },
  },
  'POST /api/geo/route': {
    schema: {
      ...doc(
        'Geo',
        'Where v2ray 4.34 routes each domain or address under a rule list',
        ADMIN,
        'An admin session or a token with the `geo:lookup` scope. `rules`: a v2ray/Xray rule array, `{"rules":[...]}` or a whole config with `routing`, read over the loaded geo files (no `ext:` files). Each result names the outbound of the first matching rule and its index; both null when no rule matched (v2ray then uses its first outbound). docs/geo.md.',
      ),
      body: body(
        { rules: {}, queries: {} },
        {
          rules: [
            { type: 'field', domain: ['geosite:cn'], outboundTag: 'direct' },
            { type: 'field', ip: ['geoip:private', '10.0.0.0/8'], outboundTag: 'direct' },
          ],
          queries: ['www.baidu.com', '10.1.2.3', 'example.org'],
        },
      ),
      response: {
        200: open({
          results: {
            type: 'array',
            items: open({
              query: STR,
              kind: { type: 'string', enum: ['domain', 'ip'] },
              outboundTag: { type: ['string', 'null'] },
              rule: { type: ['integer', 'null'] },
            }),
          },
          warnings: { type: 'array', items: STR },
          firstOutbound: { type: ['string', 'null'] },
        }),
        503: ERROR,
        ...ADMIN_ERRORS,
      },
    },
  },
  'GET /api/geo/status': {
    schema: {
      ...doc('Geo', 'The loaded geo files and their lists', ADMIN),
      response: { 200: GEO_STATUS, 503: ERROR, ...ADMIN_ERRORS },
    },
  },
  'PUT /api/geo/files': {
    schema: {
      ...doc('Geo', 'Set the geo files (kept; loaded first)', ADMIN),
      response: { 200: GEO_STATUS, ...ADMIN_ERRORS },
    },
  },
  'POST /api/geo/reload': {
    schema: {
      ...doc('Geo', 'Reload the geo files now', ADMIN),
      response: { 200: GEO_STATUS, ...ADMIN_ERRORS },
    },
  },
  'GET /api/webhooks': {
    schema: {
      ...doc('Webhooks', 'List webhooks', ADMIN),
      response: { 200: open({ webhooks: { type: 'array', items: WEBHOOK } }), ...ADMIN_ERRORS },
    },
  },
  'POST /api/webhooks': {
    schema: {
      ...doc('Webhooks', 'Add a webhook (its secret shown once)', ADMIN),
      body: body(
        { url: {}, events: {}, secret: {} },
        { url: 'https://crm.example/sms', events: ['sms:received', 'modem:state'] },
      ),
      response: { 201: open({ webhook: WEBHOOK, secret: {} }), ...ADMIN_ERRORS },
    },
  },
  'PATCH /api/webhooks/:id': {
    schema: {
      ...doc('Webhooks', 'Change a webhook; rotate or drop its secret', ADMIN),
      response: { 200: open({ webhook: WEBHOOK }), 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'DELETE /api/webhooks/:id': {
    schema: {
      ...doc('Webhooks', 'Remove a webhook', ADMIN),
      response: { 204: { type: 'null' }, 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'GET /api/webhooks/:id/attempts': {
    schema: {
      ...doc('Webhooks', "A webhook's newest delivery attempts", ADMIN),
      response: { 200: open({ attempts: ANY_ARRAY }), 404: ERROR, ...ADMIN_ERRORS },
    },
  },
  'GET /api/tls/certificate': {
    schema: {
      ...doc('System', 'The served TLS certificate', ADMIN),
      response: { 200: CERT, 503: ERROR, ...ADMIN_ERRORS },
    },
  },
  'PUT /api/tls/certificate': {
    schema: {
      ...doc('System', 'Replace the served TLS certificate (no restart)', ADMIN),
      body: body(
        { cert: {}, key: {} },
        { cert: '-----BEGIN CERTIFICATE-----\n...', key: '-----BEGIN PRIVATE KEY-----\n...' },
      ),
      response: { 200: CERT, 409: ERROR, ...ADMIN_ERRORS },
    },
  },
};

/** Attaches the docs to each route as it is registered; hides non-API routes. Call before any route. */
export function installRouteDocs(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const key = `${methods[0]} ${route.url}`;
    const docs = methods.length === 1 ? DOCS[key] : undefined;
    const own = (route.schema ?? {}) as Record<string, unknown>;
    if (!docs) {
      if (!isApiPath(route.url) || methods.length > 1) route.schema = { ...own, hide: true };
      return;
    }
    const merged: Record<string, unknown> = { ...docs.schema, ...own };
    // A route's own request schemas win (they validate); its own answer schemas join the documented ones.
    if (docs.schema.response || own.response)
      merged.response = { ...((docs.schema.response as object) ?? {}), ...((own.response as object) ?? {}) };
    if (own.body && docs.schema.body) {
      const examples = (docs.schema.body as { examples?: unknown }).examples;
      merged.body = examples ? { ...(own.body as object), examples } : own.body;
    }
    route.schema = merged;
  });
}
