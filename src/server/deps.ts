// What the app's parts are given: the store, the clock, the exchange's time zone, the guards.
// Passed explicitly to each area's routes, never as an untyped bag.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FailureLimiter, TokenInfo, TokenScope, UserInfo } from '../auth/index.js';
import type { IngestStatusReader } from '../cdr/ingest/live/ingest-source.js';
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/index.js';

/** A Fastify preHandler. */
export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** The dependencies every area's routes may use. */
export interface AppDeps {
  store: Store;
  clock: Clock;
  /** IANA time zone CDR times are rendered in. */
  timeZone: string;
  /** Counts failed authentications per client address (login, CDR pull, SMS auth). */
  failures: FailureLimiter;
  /** The logged-in user of a request (session cookie), or null. */
  sessionUser(request: FastifyRequest): Promise<UserInfo | null>;
  /** The live API token of a request's `Authorization: Bearer bgt_...` header, or null. */
  apiToken(request: FastifyRequest): Promise<TokenInfo | null>;
  /**
   * preHandler: an admin session or an API token with the `admin` scope; 401 without credentials
   * (or with an unknown token), 403 for a non-admin user or a token without the scope.
   */
  requireAdmin: Guard;
  /** preHandler factory: an admin session, or an API token granting the scope. */
  requireScope(scope: TokenScope): Guard;
  /** The live CDR sources' statuses. */
  ingest: IngestStatusReader;
}
