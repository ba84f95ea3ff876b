// /api/webhooks (admin): GET list, POST add (201, with the secret shown once), PATCH /ID (url,
// events, secret "rotate" | whsec_... | null, end_rotation), DELETE /ID (204), GET /ID/attempts.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../server/deps.js';
import { sendError } from '../server/error-catalogue.js';
import { AppError } from '../shared/errors.js';
import {
  addWebhook,
  listAttempts,
  listWebhooks,
  removeWebhook,
  updateWebhook,
  webhookJson,
} from './webhook-store.js';

function idOf(value: string): number | null {
  return /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}

/** Registers the webhook routes. */
export async function webhookRoutes(app: FastifyInstance, deps: AppDeps, kick: () => void): Promise<void> {
  const guard = { preHandler: deps.requireAdmin };
  const fail = (reply: FastifyReply, err: unknown) => {
    if (err instanceof AppError) return sendError(reply, err.code, err.message);
    throw err;
  };
  const noSuch = (reply: FastifyReply, id: string) => sendError(reply, 'no_such_webhook', `no webhook ${id}`);

  app.get('/api/webhooks', guard, async () => ({
    webhooks: (await listWebhooks(deps.store)).map(webhookJson),
  }));

  app.post<{ Body: Record<string, unknown> }>('/api/webhooks', guard, async (request, reply) => {
    try {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const { webhook, secret } = await addWebhook(deps.store, body, deps.clock.now());
      kick();
      return reply.code(201).send({ webhook: webhookJson(webhook), secret });
    } catch (err) {
      return fail(reply, err);
    }
  });

  app.patch<{ Params: { id: string }; Body: Record<string, unknown> }>(
    '/api/webhooks/:id',
    guard,
    async (request, reply) => {
      const id = idOf(request.params.id);
      if (id === null) return noSuch(reply, request.params.id);
      try {
        const { webhook, secret } = await updateWebhook(
          deps.store,
          id,
          (request.body ?? {}) as Record<string, unknown>,
        );
        return { webhook: webhookJson(webhook), ...(secret ? { secret } : {}) };
      } catch (err) {
        return fail(reply, err);
      }
    },
  );

  app.delete<{ Params: { id: string } }>('/api/webhooks/:id', guard, async (request, reply) => {
    const id = idOf(request.params.id);
    if (id === null) return noSuch(reply, request.params.id);
    try {
      await removeWebhook(deps.store, id);
      return reply.code(204).send();
    } catch (err) {
      return fail(reply, err);
    }
  });

  app.get<{ Params: { id: string } }>('/api/webhooks/:id/attempts', guard, async (request, reply) => {
    const id = idOf(request.params.id);
    if (id === null) return noSuch(reply, request.params.id);
    try {
      const attempts = await listAttempts(deps.store, id);
      return {
        attempts: attempts.map((a) => ({
          event_id: a.eventId,
          webhook_id: `evt_${a.eventId}`,
          at_ms: a.atMs,
          status: a.status,
          latency_ms: a.latencyMs,
          error: a.error,
        })),
      };
    } catch (err) {
      return fail(reply, err);
    }
  });
}
