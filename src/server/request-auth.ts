// Who a request is: the session user of its cookie, or the API token of its
// `Authorization: Bearer bgt_...` header. The guards built on them: requireAdmin (an admin session,
// or a token with the `admin` scope) and requireScope (an admin session, or a token granting it).
// Failed token attempts count against the client address like failed logins.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type FailureLimiter,
  SESSION_COOKIE,
  sessionUser,
  TOKEN_PREFIX,
  type TokenInfo,
  type TokenScope,
  tokenGrants,
  tokenOf,
  type UserInfo,
} from '../auth/index.js';
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/index.js';
import type { Guard } from './deps.js';
import { sendError } from './error-catalogue.js';

/** The bearer token of a request's Authorization header, when it has one of ours. */
function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1]?.startsWith(TOKEN_PREFIX) ? m[1] : null;
}

/** The request's principal lookups and guards for one store. */
export function createRequestAuth(store: Store, clock: Clock, failures: FailureLimiter) {
  const users = new WeakMap<FastifyRequest, Promise<UserInfo | null>>();
  const tokens = new WeakMap<FastifyRequest, Promise<TokenInfo | null>>();

  const userOf = (request: FastifyRequest): Promise<UserInfo | null> => {
    let hit = users.get(request);
    if (!hit) {
      const token = request.cookies[SESSION_COOKIE];
      hit = token ? sessionUser(store, token, clock) : Promise.resolve(null);
      users.set(request, hit);
    }
    return hit;
  };

  const apiTokenOf = (request: FastifyRequest): Promise<TokenInfo | null> => {
    let hit = tokens.get(request);
    if (!hit) {
      const bearer = bearerOf(request);
      hit = bearer ? tokenOf(store, bearer, clock.now()) : Promise.resolve(null);
      tokens.set(request, hit);
    }
    return hit;
  };

  // Answers the request when it carries no acceptable credentials; returns whether it did.
  const refuse = async (
    request: FastifyRequest,
    reply: FastifyReply,
    allowed: (token: TokenInfo) => boolean,
    what: string,
  ): Promise<boolean> => {
    const bearer = bearerOf(request);
    if (bearer) {
      const client = `token:${request.ip}`;
      const wait = await failures.blockedFor(client);
      if (wait > 0) {
        reply.header('Retry-After', String(wait));
        await sendError(reply, 'too_many_attempts', `too many failed token attempts; try again in ${wait} s`);
        return true;
      }
      const token = await apiTokenOf(request);
      if (!token) {
        await failures.fail(client);
        await sendError(reply, 'unauthorized', 'the API token is unknown or revoked');
        return true;
      }
      await failures.succeed(client);
      if (allowed(token)) return false;
      await sendError(reply, 'forbidden', `API token "${token.name}" lacks the scope ${what}`);
      return true;
    }
    const user = await userOf(request);
    if (!user) {
      await sendError(reply, 'unauthorized', 'log in first (POST /api/login) or send an API token');
      return true;
    }
    if (!user.isAdmin) {
      await sendError(reply, 'forbidden', `user "${user.username}" is not an administrator`);
      return true;
    }
    return false;
  };

  const requireAdmin: Guard = async (request, reply) => {
    await refuse(request, reply, (t) => t.scopes.includes('admin'), 'admin');
  };

  /** A guard that admits an admin session or a token granting `scope`. */
  const requireScope =
    (scope: TokenScope): Guard =>
    async (request, reply) => {
      await refuse(request, reply, (t) => tokenGrants(t, scope), scope);
    };

  return { sessionUser: userOf, apiToken: apiTokenOf, requireAdmin, requireScope };
}
