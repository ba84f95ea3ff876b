// The geo service's HTTP endpoints:
//   POST /api/geo/lookup {"queries":[...]}   admin session or a token with geo:lookup
//   POST /api/geo/route {"rules","queries"}  the same: v2ray's routing decision for each query
//   GET  /api/geo/status                     admin: files, lists with counts, last load and error
//   PUT  /api/geo/files {"site","ip"}        admin: set the files (null: back to the flag)
//   POST /api/geo/reload                     admin: reload now (as SIGHUP does)
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../server/deps.js';
import { sendError } from '../../server/error-catalogue.js';
import { GeoError } from '../errors.js';
import type { GeoService } from './geo-service.js';
import { MAX_ROUTE_RULES, routeDecisions } from './route-decisions.js';

/** The most queries one request may carry. */
const NOTHING_LOADED =
  'no geo files are loaded: start serve with --geosite/--geoip or set them on the console (Routing > Geo)';

export const MAX_LOOKUP_QUERIES = 10_000;

const pathOrNull = { anyOf: [{ type: 'string', minLength: 1, maxLength: 4096 }, { type: 'null' }] };

/** Registers the geo routes; without a service they answer 503. */
export async function geoRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  geo: GeoService | undefined,
): Promise<void> {
  const none = (reply: FastifyReply) =>
    sendError(reply, 'unavailable', 'this server runs no geo service (started without serve)');

  app.post<{ Body: { queries: string[] } }>(
    '/api/geo/lookup',
    {
      preHandler: deps.requireScope('geo:lookup'),
      schema: {
        body: {
          type: 'object',
          required: ['queries'],
          additionalProperties: false,
          properties: {
            queries: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_LOOKUP_QUERIES,
              items: { type: 'string', maxLength: 1024 },
            },
          },
        },
      },
    },
    async (request, reply) => {
      // One lookup for the whole request, even if a reload swaps the service's meanwhile.
      const lookup = geo?.current();
      if (!lookup) {
        return sendError(reply, 'unavailable', NOTHING_LOADED);
      }
      return { results: request.body.queries.map((query) => ({ query, codes: lookup.lookup(query) })) };
    },
  );

  app.post<{ Body: { rules: unknown; queries: string[] } }>(
    '/api/geo/route',
    {
      preHandler: deps.requireScope('geo:lookup'),
      schema: {
        body: {
          type: 'object',
          required: ['rules', 'queries'],
          additionalProperties: false,
          properties: {
            rules: { anyOf: [{ type: 'array', maxItems: MAX_ROUTE_RULES }, { type: 'object' }] },
            queries: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_LOOKUP_QUERIES,
              items: { type: 'string', minLength: 1, maxLength: 1024 },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const lookup = geo?.current();
      if (!lookup) {
        return sendError(reply, 'unavailable', NOTHING_LOADED);
      }
      try {
        return routeDecisions(lookup, request.body.rules, request.body.queries);
      } catch (err) {
        if (err instanceof GeoError) return sendError(reply, err.code, err.message);
        throw err;
      }
    },
  );

  app.get('/api/geo/status', { preHandler: deps.requireAdmin }, async (_request, reply) =>
    geo ? geo.status() : none(reply),
  );

  app.put<{ Body: { site?: string | null; ip?: string | null } }>(
    '/api/geo/files',
    {
      preHandler: deps.requireAdmin,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: { site: pathOrNull, ip: pathOrNull },
        },
      },
    },
    async (request, reply) => {
      if (!geo) return none(reply);
      try {
        return await geo.setFiles(request.body, deps.clock.now());
      } catch (err) {
        if (err instanceof GeoError) return sendError(reply, 'bad_setting', `Not saved: ${err.message}`);
        throw err;
      }
    },
  );

  app.post('/api/geo/reload', { preHandler: deps.requireAdmin }, async (_request, reply) => {
    if (!geo) return none(reply);
    geo.reload('POST /api/geo/reload');
    const status = geo.status();
    if (status.lastError) return sendError(reply, 'bad_setting', `not reloaded: ${status.lastError.message}`);
    return status;
  });
}
