// Admin REST for accounts: extensions (/api/extensions), console users (/api/users) and API tokens
// (/api/tokens). The same functions back the CLI (extension, user, token commands) and the console,
// so all three take one validation path. Admin session or admin-scoped token, except that a user
// may change their own password with the current one.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../server/deps.js';
import { sendError } from '../server/error-catalogue.js';
import { AppError } from '../shared/errors.js';
import {
  addExtension,
  type ExtensionInfo,
  extensionKey,
  listExtensions,
  removeExtension,
  setExtension,
} from './extensions.js';
import { createToken, listTokens, revokeToken, TOKEN_SCOPES, type TokenInfo } from './tokens.js';
import {
  addUser,
  checkLogin,
  listUsers,
  removeUser,
  setUserAdmin,
  setUserPassword,
  type UserInfo,
} from './users.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An extension as the API writes it. */
export const extensionJson = (e: ExtensionInfo) => ({
  number: e.number,
  name: e.name,
  cdr_access: e.cdrAccess,
});
/** A user as the API writes it. */
export const userJson = (u: UserInfo) => ({
  username: u.username,
  is_admin: u.isAdmin,
  created_at: iso(u.createdAtMs),
});
/** A token as the API writes it (never the token itself). */
export const tokenJson = (t: TokenInfo) => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  scopes: t.scopes,
  created_at: iso(t.createdAtMs),
  last_used_at: iso(t.lastUsedMs),
  revoked_at: iso(t.revokedAtMs),
});

/** A new random extension secret: 24 characters, URL- and shell-safe. */
export function generateSecret(): string {
  return randomBytes(18).toString('base64url');
}

/** What an operator needs once after setting a secret: the key and a ready pull command. */
function credentialJson(request: FastifyRequest, number: string, secret: string, generated: boolean) {
  const key = extensionKey(secret);
  const host = request.headers.host ?? '127.0.0.1:8443';
  return {
    ...(generated ? { secret } : {}),
    key,
    curl: `curl -sk "https://${host}/pbx/cdr/data?page=1&limit=100" -u "${number}:${key}"`,
  };
}

async function answer<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) return sendError(reply, err.code, err.message);
    throw err;
  }
}

const extensionBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    number: { type: 'string', minLength: 1, maxLength: 32 },
    name: { type: 'string', maxLength: 128 },
    secret: { type: 'string', minLength: 1, maxLength: 1024 },
    regenerate_secret: { type: 'boolean' },
    cdr_access: { type: 'boolean' },
  },
} as const;

interface ExtensionBody {
  number?: string;
  name?: string;
  secret?: string;
  regenerate_secret?: boolean;
  cdr_access?: boolean;
}

/** The accounts admin routes. */
export async function adminRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const admin = { preHandler: deps.requireAdmin };

  app.get('/api/extensions', admin, async () => ({
    data: (await listExtensions(deps.store)).map(extensionJson),
  }));

  app.post<{ Body: ExtensionBody }>(
    '/api/extensions',
    { ...admin, schema: { body: { ...extensionBody, required: ['number'] } } },
    (request, reply) =>
      answer(reply, async () => {
        const b = request.body;
        const secret = b.secret ?? generateSecret();
        const ext = await addExtension(
          deps.store,
          { number: b.number as string, secret, name: b.name, cdrAccess: b.cdr_access ?? false },
          deps.clock.now(),
        );
        return reply.code(201).send({
          extension: extensionJson(ext),
          ...credentialJson(request, ext.number, secret, b.secret === undefined),
        });
      }),
  );

  app.patch<{ Params: { number: string }; Body: ExtensionBody }>(
    '/api/extensions/:number',
    { ...admin, schema: { body: extensionBody } },
    (request, reply) =>
      answer(reply, async () => {
        const b = request.body;
        if (b.number !== undefined && b.number !== request.params.number)
          throw new AppError('bad_extension', 'number: an extension cannot be renumbered; add a new one');
        if (b.secret !== undefined && b.regenerate_secret)
          throw new AppError('bad_extension', 'give secret or regenerate_secret, not both');
        const secret = b.regenerate_secret ? generateSecret() : b.secret;
        const ext = await setExtension(
          deps.store,
          request.params.number,
          { secret, name: b.name, cdrAccess: b.cdr_access },
          deps.clock.now(),
        );
        return {
          extension: extensionJson(ext),
          ...(secret === undefined
            ? {}
            : credentialJson(request, ext.number, secret, b.regenerate_secret === true)),
        };
      }),
  );

  app.delete<{ Params: { number: string } }>('/api/extensions/:number', admin, (request, reply) =>
    answer(reply, async () => {
      await removeExtension(deps.store, request.params.number);
      return reply.code(204).send();
    }),
  );

  app.get('/api/users', admin, async () => ({ data: (await listUsers(deps.store)).map(userJson) }));

  app.post<{ Body: { username: string; password: string; is_admin?: boolean } }>(
    '/api/users',
    {
      ...admin,
      schema: {
        body: {
          type: 'object',
          required: ['username', 'password'],
          additionalProperties: false,
          properties: {
            username: { type: 'string' },
            password: { type: 'string' },
            is_admin: { type: 'boolean' },
          },
        },
      },
    },
    (request, reply) =>
      answer(reply, async () => {
        const b = request.body;
        const user = await addUser(
          deps.store,
          { username: b.username, password: b.password, isAdmin: b.is_admin ?? false },
          deps.clock.now(),
        );
        return reply.code(201).send({ user: userJson(user) });
      }),
  );

  // An admin may change anything; a user only their own password, giving the current one.
  app.patch<{
    Params: { username: string };
    Body: { password?: string; current_password?: string; is_admin?: boolean };
  }>(
    '/api/users/:username',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            password: { type: 'string' },
            current_password: { type: 'string' },
            is_admin: { type: 'boolean' },
          },
        },
      },
    },
    async (request, reply) => {
      const target = request.params.username;
      const b = request.body;
      const token = await deps.apiToken(request);
      const me = token ? null : await deps.sessionUser(request);
      const isAdmin = token ? token.scopes.includes('admin') : me?.isAdmin === true;
      if (!isAdmin) {
        if (!me && !token)
          return sendError(reply, 'unauthorized', 'log in first (POST /api/login) or send an API token');
        if (!me || me.username !== target || b.is_admin !== undefined || b.password === undefined)
          return sendError(
            reply,
            'forbidden',
            'only an administrator may change another user or admin rights',
          );
        if (b.current_password === undefined || !(await checkLogin(deps.store, target, b.current_password)))
          return sendError(reply, 'bad_password', 'current_password: wrong or missing', 400);
      }
      return answer(reply, async () => {
        if (b.is_admin !== undefined) await setUserAdmin(deps.store, target, b.is_admin);
        if (b.password !== undefined) await setUserPassword(deps.store, target, b.password);
        const user = (await listUsers(deps.store)).find((u) => u.username === target);
        if (!user) throw new AppError('no_such_user', `no user "${target}"`);
        return { user: userJson(user), sessions_ended: b.password !== undefined };
      });
    },
  );

  app.delete<{ Params: { username: string } }>('/api/users/:username', admin, (request, reply) =>
    answer(reply, async () => {
      await removeUser(deps.store, request.params.username);
      return reply.code(204).send();
    }),
  );

  app.get('/api/tokens', admin, async () => ({ data: (await listTokens(deps.store)).map(tokenJson) }));

  app.post<{ Body: { name: string; scopes: string[] } }>(
    '/api/tokens',
    {
      ...admin,
      schema: {
        body: {
          type: 'object',
          required: ['name', 'scopes'],
          additionalProperties: false,
          properties: {
            name: { type: 'string' },
            scopes: { type: 'array', items: { type: 'string' }, maxItems: TOKEN_SCOPES.length * 2 },
          },
        },
      },
    },
    (request, reply) =>
      answer(reply, async () => {
        const { token, info } = await createToken(deps.store, request.body, deps.clock.now());
        return reply.code(201).send({ token, ...tokenJson(info) });
      }),
  );

  app.delete<{ Params: { id: string } }>('/api/tokens/:id', admin, (request, reply) =>
    answer(reply, async () => {
      if (!/^\d{1,9}$/.test(request.params.id))
        throw new AppError('bad_token', `token id "${request.params.id}": expected a number`);
      return tokenJson(await revokeToken(deps.store, Number(request.params.id), deps.clock.now()));
    }),
  );
}
