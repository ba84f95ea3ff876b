// The modem's state in words, as the SMS page and the dashboard show it.
import type { ModemStatusView } from '../sms/index.js';

/** Label and value rows for a modem status (empty without a modem). */
export function modemRows(s: ModemStatusView | null): Array<[string, string]> {
  if (!s || s.modem === 'none') return [['modem', 'none (serve --modem)']];
  const h = s.health;
  const rows: Array<[string, string]> = [['modem', s.modem]];
  if (h) {
    const network =
      h.registration === 'home' || h.registration === 'roaming'
        ? `registered (${h.registration})${h.operator ? `, ${h.operator}` : ''}`
        : h.registration.replace('_', ' ');
    rows.push(['network', network]);
    rows.push([
      'signal',
      h.signal.rssiDbm === null ? 'none' : `${h.signal.rssiDbm} dBm (${h.signal.level}/5)`,
    ]);
    rows.push(['SIM', h.sim.replace('_', ' ')]);
    if (h.storage)
      rows.push(['storage', `${h.storage.used} of ${h.storage.total} used (${h.storage.memory})`]);
  } else {
    rows.push(['network', 'not polled yet']);
  }
  if (s.lastError) rows.push(['last error', s.lastError.message]);
  return rows;
}
