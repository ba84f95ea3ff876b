// The modem's health as 3GPP TS 27.007 reports it: registration (+CREG, +CEREG), operator (+COPS),
// signal (+CSQ), SIM (+CPIN), ICCID (+CCID / +ICCID / +QCCID, whichever the modem knows), IMSI
// (+CIMI), IMEI (+CGSN) and message storage (+CPMS?). One poll runs each command through the
// ordinary queue, one at a time, so a message to send waits for at most one short command; a
// command that fails leaves its field null and its error in `errors`, never failing the poll.
import { ModemError } from './modem-error.js';

/** Network registration, from the better of +CREG (circuit) and +CEREG (LTE). */
export type Registration = 'home' | 'roaming' | 'searching' | 'denied' | 'not_registered' | 'unknown';

/** The SIM as +CPIN reports it. */
export type SimState = 'ready' | 'pin_required' | 'puk_required' | 'not_inserted' | 'locked' | 'unknown';

/** One poll's findings. */
export interface ModemHealth {
  registration: Registration;
  /** The operator's name while registered, else null. */
  operator: string | null;
  signal: {
    /** +CSQ <rssi> as sent: 0-31, 99 = not known; null when +CSQ failed. */
    csq: number | null;
    /** Received signal strength in dBm (-113 to -51), null when not known. */
    rssiDbm: number | null;
    /** 0 (none) to 5 (excellent), from rssi: see signalLevel. */
    level: number;
  };
  sim: SimState;
  iccid: string | null;
  imsi: string | null;
  imei: string | null;
  /** Message storage in use (+CPMS): the first memory's used and total slots. */
  storage: { memory: string; used: number; total: number } | null;
  /** What failed in this poll, by command (empty when everything answered). */
  errors: Readonly<Record<string, string>>;
}

/** Runs one AT command through the queue; resolves with its information lines. */
export type HealthCommand = (text: string) => Promise<readonly string[]>;

/** RSSI in dBm from +CSQ <rssi> (TS 27.007 8.5): 0 -> -113, 1 -> -111, 2..30 -> -109..-53, 31 -> -51. */
export function rssiDbm(csq: number): number | null {
  if (!Number.isInteger(csq) || csq < 0 || csq > 31) return null;
  return -113 + 2 * csq;
}

/**
 * Bars from +CSQ <rssi>: 0 for none or unknown (0, 99), then 1 (1-9, up to -95 dBm), 2 (10-14),
 * 3 (15-19), 4 (20-24), 5 (25-31, -63 dBm and better). The steps of Android's GSM level scale
 * with one more step at the top.
 */
export function signalLevel(csq: number | null): number {
  if (csq === null || csq <= 0 || csq > 31) return 0;
  if (csq < 10) return 1;
  if (csq < 15) return 2;
  if (csq < 20) return 3;
  if (csq < 25) return 4;
  return 5;
}

const REGISTRATION: Readonly<Record<number, Registration>> = {
  0: 'not_registered',
  1: 'home',
  2: 'searching',
  3: 'denied',
  4: 'unknown',
  5: 'roaming',
  // 6/7: "SMS only" home/roaming (TS 27.007 10.1.22): registered for what we do.
  6: 'home',
  7: 'roaming',
};

/** <stat> of a +CREG/+CGREG/+CEREG read answer (`+CREG: <n>,<stat>[,...]`), or undefined. */
export function parseRegistration(lines: readonly string[], name: string): number | undefined {
  for (const line of lines) {
    const m = new RegExp(`^\\+${name}:\\s*\\d+\\s*,\\s*(\\d+)`).exec(line);
    if (m?.[1] !== undefined) return Number(m[1]);
  }
  return undefined;
}

/** The better of two registrations: registered beats searching beats the rest. */
function better(a: Registration, b: Registration): Registration {
  const rank: Registration[] = ['home', 'roaming', 'searching', 'denied', 'not_registered', 'unknown'];
  return rank.indexOf(a) <= rank.indexOf(b) ? a : b;
}

/** The operator of a +COPS? answer (`+COPS: <mode>[,<format>,"<oper>"[,<AcT>]]`), or null. */
export function parseOperator(lines: readonly string[]): string | null {
  for (const line of lines) {
    const m = /^\+COPS:\s*\d+\s*,\s*\d+\s*,\s*"([^"]*)"/.exec(line);
    if (m?.[1] !== undefined) return m[1].trim() || null;
  }
  return null;
}

/** The <rssi> of a +CSQ answer, or undefined. */
export function parseCsq(lines: readonly string[]): number | undefined {
  for (const line of lines) {
    const m = /^\+CSQ:\s*(\d+)\s*,/.exec(line);
    if (m?.[1] !== undefined) return Number(m[1]);
  }
  return undefined;
}

/** The SIM state of a +CPIN? answer. */
export function parseCpin(lines: readonly string[]): SimState {
  const line = lines.find((l) => l.startsWith('+CPIN:')) ?? '';
  const code = line.slice(6).trim().toUpperCase();
  if (code === 'READY') return 'ready';
  if (code === 'SIM PIN' || code === 'SIM PIN2') return 'pin_required';
  if (code === 'SIM PUK' || code === 'SIM PUK2') return 'puk_required';
  return code === '' ? 'unknown' : 'locked';
}

/** An ICCID from +CCID / +ICCID / +QCCID / ^ICCID answers or a bare line of digits, or null. */
export function parseIccid(lines: readonly string[]): string | null {
  for (const line of lines) {
    const m = /^(?:[+^][A-Z]*CCID:\s*)?"?([0-9A-Fa-f]{18,22})"?$/.exec(line.trim());
    if (m?.[1] !== undefined) return m[1].toUpperCase();
  }
  return null;
}

/** A bare identity line (+CIMI, +CGSN: digits, some modems prefix "+CGSN: "), or null. */
export function parseDigits(lines: readonly string[], min: number, max: number): string | null {
  for (const line of lines) {
    const m = /^(?:\+\w+:\s*)?"?(\d+)"?$/.exec(line.trim());
    if (m?.[1] !== undefined && m[1].length >= min && m[1].length <= max) return m[1];
  }
  return null;
}

/** Memory, used and total of the first storage in a +CPMS? answer, or null. */
export function parseCpms(lines: readonly string[]): ModemHealth['storage'] {
  for (const line of lines) {
    const m = /^\+CPMS:\s*"([^"]+)"\s*,\s*(\d+)\s*,\s*(\d+)/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined && m[3] !== undefined)
      return { memory: m[1], used: Number(m[2]), total: Number(m[3]) };
  }
  return null;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** +CME ERROR 10: SIM not inserted (numeric or verbose). */
function simMissing(err: unknown): boolean {
  if (!(err instanceof ModemError)) return false;
  return err.modemCode === 10 || /SIM not inserted/i.test(err.message);
}

/** Polls every field; which ICCID command worked is remembered in `iccidCommand` between polls. */
export class HealthPoller {
  private iccidCommand: string | undefined;

  constructor(private readonly run: HealthCommand) {}

  async poll(): Promise<ModemHealth> {
    const errors: Record<string, string> = {};
    const ask = async (text: string): Promise<readonly string[] | undefined> => {
      try {
        return await this.run(text);
      } catch (err) {
        errors[text] = describe(err);
        return undefined;
      }
    };

    let sim: SimState = 'unknown';
    try {
      sim = parseCpin(await this.run('AT+CPIN?'));
    } catch (err) {
      if (simMissing(err)) sim = 'not_inserted';
      else errors['AT+CPIN?'] = describe(err);
    }
    const creg = parseRegistration((await ask('AT+CREG?')) ?? [], 'CREG');
    const cereg = parseRegistration((await ask('AT+CEREG?')) ?? [], 'CEREG');
    let registration: Registration = 'unknown';
    for (const stat of [creg, cereg]) {
      if (stat !== undefined) registration = better(registration, REGISTRATION[stat] ?? 'unknown');
    }
    const registered = registration === 'home' || registration === 'roaming';
    const operator = registered ? parseOperator((await ask('AT+COPS?')) ?? []) : null;
    const csqLines = await ask('AT+CSQ');
    const csq = csqLines ? (parseCsq(csqLines) ?? null) : null;
    const storageLines = await ask('AT+CPMS?');
    const imeiLines = await ask('AT+CGSN');
    let imsi: string | null = null;
    let iccid: string | null = null;
    if (sim === 'ready') {
      imsi = parseDigits((await ask('AT+CIMI')) ?? [], 6, 15);
      iccid = await this.readIccid(errors);
    }
    return {
      registration,
      operator,
      signal: { csq, rssiDbm: csq === null ? null : rssiDbm(csq), level: signalLevel(csq) },
      sim,
      iccid,
      imsi,
      imei: imeiLines ? parseDigits(imeiLines, 14, 17) : null,
      storage: storageLines ? parseCpms(storageLines) : null,
      errors,
    };
  }

  // Modems disagree on the command; the first that answers with an ICCID is kept.
  private async readIccid(errors: Record<string, string>): Promise<string | null> {
    const candidates = this.iccidCommand ? [this.iccidCommand] : ['AT+CCID', 'AT+ICCID', 'AT+QCCID'];
    for (const text of candidates) {
      try {
        const found = parseIccid(await this.run(text));
        if (found) {
          this.iccidCommand = text;
          return found;
        }
      } catch (err) {
        if (candidates.length === 1) errors[text] = describe(err);
      }
    }
    if (candidates.length > 1) errors['AT+CCID'] = 'no ICCID from AT+CCID, AT+ICCID or AT+QCCID';
    return null;
  }
}
