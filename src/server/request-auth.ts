// Resolves the session user of a request from its cookie, and the admin guard built on it.
import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE, sessionUser, type UserInfo } from '../auth/index.js';
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/index.js';
import type { Guard } from './deps.js';
import { sendError } from './error-catalogue.js';

/** The session user lookup and the requireAdmin guard for one store. */
export function createRequestAuth(store: Store, clock: Clock) {
  const cache = new WeakMap<FastifyRequest, Promise<UserInfo | null>>();
  const userOf = (request: FastifyRequest): Promise<UserInfo | null> => {
    let hit = cache.get(request);
    if (!hit) {
      const token = request.cookies[SESSION_COOKIE];
      hit = token ? sessionUser(store, token, clock) : Promise.resolve(null);
      cache.set(request, hit);
    }
    return hit;
  };
  const requireAdmin: Guard = async (request, reply) => {
    const user = await userOf(request);
    if (!user) {
      await sendError(reply, 'unauthorized', 'log in first: POST /api/login');
      return;
    }
    if (!user.isAdmin) await sendError(reply, 'forbidden', `user "${user.username}" is not an administrator`);
  };
  return { sessionUser: userOf, requireAdmin };
}
