// The SMS API (DESIGN.md section 7): POST /api/sms/get-all | get-one | delete-one | send-one, and
// with a simulated modem POST /api/modem-sim/incoming. JSON bodies carry `auth`, the admin
// password; an encapsulated plugin with the SMS envelope for every answer, errors included.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../server/deps.js';
import { TimeFormatter } from '../shared/wall-time.js';
import { type SmsMessageRow, toWireMessage } from './message.js';
import { deleteMessage, getMessage, listMessages } from './message-store.js';
import type { SimRadio } from './modem/index.js';
import { modemStatusJson } from './modem-status.js';
import { gsm7Length } from './pdu/gsm7.js';
import { splitText } from './pdu/split-text.js';
import {
  bodyObject,
  parseDestination,
  parseId,
  parseSender,
  parseText,
  parseType,
} from './request-fields.js';
import { createSmsAuth } from './sms-auth.js';
import { SmsError } from './sms-error.js';
import { installSmsErrorHandler, sendSmsData, sendSmsError } from './sms-reply.js';
import type { SmsGateway } from './sms-service.js';

/** Largest body the SMS routes read (the longest message is far smaller). */
export const SMS_BODY_LIMIT = 64 * 1024;

/** The SMS routes as a plugin; without a gateway (no modem configured) send-one answers 503. */
export function smsRoutes(deps: AppDeps, sms: SmsGateway | undefined): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    installSmsErrorHandler(app);
    const dates = new TimeFormatter(deps.timeZone);
    const authenticate = createSmsAuth(deps);

    const route = (
      path: string,
      handler: (body: Record<string, unknown>, reply: FastifyReply) => Promise<unknown>,
    ) =>
      app.post(path, { bodyLimit: SMS_BODY_LIMIT }, async (request, reply) => {
        checkJson(request);
        const body = bodyObject(request.body);
        await authenticate(request, reply, body);
        return handler(body, reply);
      });

    const wire = (row: SmsMessageRow) => toWireMessage(row, dates);
    const notFound = (type: string, id: unknown): never => {
      throw new SmsError('not_found', `id: no ${type} message ${JSON.stringify(String(id))}`);
    };

    route('/api/sms/get-all', async (body, reply) => {
      const type = parseType(body.type);
      return sendSmsData(reply, (await listMessages(deps.store, type)).map(wire));
    });

    route('/api/sms/get-one', async (body, reply) => {
      const type = parseType(body.type);
      const id = parseId(body.id);
      const row = id === null ? undefined : await getMessage(deps.store, type, id);
      return row ? sendSmsData(reply, wire(row)) : notFound(type, body.id);
    });

    route('/api/sms/delete-one', async (body, reply) => {
      const type = parseType(body.type);
      const id = parseId(body.id);
      const row = id === null ? undefined : await deleteMessage(deps.store, type, id);
      return row ? sendSmsData(reply, wire(row)) : notFound(type, body.id);
    });

    route('/api/sms/send-one', async (body, reply) => {
      const to = parseDestination(body.to, sms?.defaultCountryCode);
      const { text, parts } = parseText(body.message, sms?.maxParts ?? 10);
      if (!sms?.modemReady()) {
        throw new SmsError('unavailable', 'no modem is ready; the message was not stored, try again later');
      }
      const encoding = parts[0]?.encoding ?? 'gsm7';
      const row = await sms.send({ to: to.number, typed: to.typed, text, encoding, parts: parts.length });
      const message = wire(row);
      // Still on the wire when the wait ended: for the caller it is queued (the outbox has it).
      if (message.status === 'sending') message.status = 'queued';
      return sendSmsData(reply, message);
    });

    // How send-one would split a text: for the console's counter (and any client that wants it).
    route('/api/sms/split', async (body, reply) => {
      const text = typeof body.message === 'string' ? body.message : '';
      const forcing = [...new Set([...text].filter((ch) => gsm7Length(ch) < 0))];
      let parts: number;
      let encoding: string;
      try {
        const split = splitText(text);
        parts = split.length;
        encoding = split[0]?.encoding ?? 'gsm7';
      } catch {
        parts = -1;
        encoding = forcing.length > 0 ? 'ucs2' : 'gsm7';
      }
      return sendSmsData(reply, {
        characters: [...text].length,
        encoding,
        parts,
        max_parts: sms?.maxParts ?? 10,
        ucs2_characters: forcing,
      });
    });

    // The modem's health, device style; "refresh": true polls the modem first.
    route('/api/sms/status', async (body, reply) => {
      if (!sms) throw new SmsError('unavailable', 'no modem is configured');
      const status = body.refresh === true ? await sms.refreshModemStatus() : sms.modemStatus();
      return sendSmsData(reply, modemStatusJson(status, dates));
    });

    // Switches the simulated modem's radio and SIM (tests, demos): csq, registration, operator, sim.
    route('/api/modem-sim/radio', async (body, reply) => {
      const simulator = sms?.simulator;
      if (!simulator)
        throw new SmsError('not_found', 'no simulated modem: start the server with --modem sim or sim-pty');
      simulator.setRadio(parseRadio(body));
      return sendSmsData(reply, simulator.state.radio);
    });

    route('/api/modem-sim/incoming', async (body, reply) => {
      const simulator = sms?.simulator;
      if (!simulator)
        throw new SmsError('not_found', 'no simulated modem: start the server with --modem sim or sim-pty');
      const from = parseSender(body.from);
      const { text, parts } = parseText(body.message, 255);
      const slots = simulator.deliver(from, text);
      // Parts that found no free slot wait at the simulated network until the collector frees one.
      return sendSmsData(reply, { from, parts: parts.length, stored: slots.length });
    });

    app.all('/api/sms/*', async (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      return ENDPOINTS.has(path)
        ? sendSmsError(reply, 'method_not_allowed', `${request.method} ${path}: use POST with a JSON body`)
        : sendSmsError(reply, 'not_found', `no route ${request.method} ${path}`);
    });
  };
}

const ENDPOINTS = new Set([
  '/api/sms/status',
  '/api/sms/split',
  '/api/sms/get-all',
  '/api/sms/get-one',
  '/api/sms/delete-one',
  '/api/sms/send-one',
]);

/** 415 unless the request says it carries JSON. */
function checkJson(request: FastifyRequest): void {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new SmsError(
      'unsupported_media_type',
      `Content-Type: expected application/json, got ${type ? JSON.stringify(type.slice(0, 60)) : 'none'}`,
    );
  }
}

/** The radio switches of /api/modem-sim/radio, each optional and checked. */
function parseRadio(body: Record<string, unknown>): Partial<SimRadio> {
  const out: Partial<SimRadio> = {};
  const int = (name: string, ok: (n: number) => boolean, what: string) => {
    const v = body[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || !ok(v))
      throw new SmsError('bad_request', `${name}: ${what}`);
    return v;
  };
  const csq = int('csq', (n) => (n >= 0 && n <= 31) || n === 99, 'expected 0-31 or 99 (not known)');
  if (csq !== undefined) out.csq = csq;
  const registration = int(
    'registration',
    (n) => n >= 0 && n <= 5,
    'expected a <stat> from 0 to 5 (1 home, 5 roaming)',
  );
  if (registration !== undefined) out.registration = registration;
  if (body.operator !== undefined) {
    if (typeof body.operator !== 'string' || body.operator.length > 32)
      throw new SmsError('bad_request', 'operator: expected a name of up to 32 characters');
    out.operator = body.operator;
  }
  if (body.sim !== undefined) {
    if (body.sim !== 'ready' && body.sim !== 'absent' && body.sim !== 'pin')
      throw new SmsError('bad_request', 'sim: expected "ready", "absent" or "pin"');
    out.sim = body.sim;
  }
  return out;
}
