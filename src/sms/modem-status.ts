// The modem status as the APIs answer it (snake_case, times in the exchange's zone like the SMS
// API's dates), and GET /api/modem/status for admins (POST /api/sms/status is the device-style
// twin in sms-routes.ts).
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../server/deps.js';
import { TimeFormatter } from '../shared/wall-time.js';
import type { ModemStatusView } from './modem-monitor.js';
import type { SmsGateway } from './sms-service.js';

/** The JSON form of a modem status. */
export function modemStatusJson(s: ModemStatusView, dates: TimeFormatter) {
  const h = s.health;
  const at = (ms: number | null) => (ms === null ? null : dates.format(Math.floor(ms / 1000)));
  return {
    modem: s.modem,
    device: s.device,
    state: s.condition,
    registration: h?.registration ?? null,
    operator: h?.operator ?? null,
    signal: h ? { csq: h.signal.csq, rssi_dbm: h.signal.rssiDbm, level: h.signal.level } : null,
    sim: h?.sim ?? null,
    iccid: h?.iccid ?? null,
    imsi: h?.imsi ?? null,
    imei: h?.imei ?? null,
    storage: h?.storage ?? null,
    polled_at: at(s.polledAtMs),
    last_error: s.lastError ? { message: s.lastError.message, at: at(s.lastError.atMs) } : null,
  };
}

/** GET /api/modem/status (admin session or admin token); `?refresh=1` polls the modem first. */
export async function modemStatusRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  sms: SmsGateway | undefined,
): Promise<void> {
  const dates = new TimeFormatter(deps.timeZone);
  app.get<{ Querystring: { refresh?: string } }>(
    '/api/modem/status',
    { preHandler: deps.requireAdmin },
    async (request) => {
      if (!sms) {
        return modemStatusJson(
          { modem: 'none', device: null, condition: null, health: null, polledAtMs: null, lastError: null },
          dates,
        );
      }
      const refresh = request.query.refresh === '1' || request.query.refresh === 'true';
      return modemStatusJson(refresh ? await sms.refreshModemStatus() : sms.modemStatus(), dates);
    },
  );
}
