// POST /api/login and /api/logout, GET /api/me: the admin console's session, as an HttpOnly,
// Secure, SameSite=Strict cookie. Failed logins are rate limited per client address.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../server/deps.js';
import { sendError } from '../server/error-catalogue.js';
import { createSession, endSession, SESSION_COOKIE, SESSION_TTL_MS } from './sessions.js';
import { checkLogin } from './users.js';

const loginBody = {
  type: 'object',
  required: ['username', 'password'],
  additionalProperties: false,
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 64 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
} as const;

/** The session routes. */
export async function authRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post<{ Body: { username: string; password: string } }>(
    '/api/login',
    { schema: { body: loginBody } },
    async (request, reply) => {
      const client = `login:${request.ip}`;
      const wait = await deps.failures.blockedFor(client);
      if (wait > 0) {
        reply.header('Retry-After', String(wait));
        return sendError(reply, 'too_many_attempts', `too many failed logins; try again in ${wait} s`);
      }
      const user = await checkLogin(deps.store, request.body.username, request.body.password);
      if (!user) {
        await deps.failures.fail(client);
        return sendError(reply, 'unauthorized', 'wrong username or password');
      }
      await deps.failures.succeed(client);
      const token = await createSession(deps.store, user.id, deps.clock);
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        secure: true,
        sameSite: 'strict',
        maxAge: Math.floor(SESSION_TTL_MS / 1000),
      });
      return { user: { username: user.username, is_admin: user.isAdmin } };
    },
  );

  app.post('/api/logout', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await endSession(deps.store, token);
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, secure: true, sameSite: 'strict' });
    return { status: 'ok' };
  });

  app.get('/api/me', async (request, reply) => {
    const user = await deps.sessionUser(request);
    if (!user) return sendError(reply, 'unauthorized', 'not logged in');
    return { user: { username: user.username, is_admin: user.isAdmin } };
  });
}
