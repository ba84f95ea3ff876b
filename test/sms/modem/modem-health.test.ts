// The modem's health read through the real engine from the simulator on a real pty (and in
// memory): every field, the simulator's switches (no signal, SIM removed, roaming), the ICCID
// command each vendor uses; and, through the SMS service and the HTTPS API, the status endpoints
// and the modem:state events a signal loss and a SIM removal raise.
import { afterEach, describe, expect, it, test } from 'vitest';
import { ensureAdmin } from '../../../src/auth/index.js';
import type { ModemStateChange } from '../../../src/sms/index.js';
import {
  HealthPoller,
  parseCpms,
  parseIccid,
  parseOperator,
  parseRegistration,
  rssiDbm,
  signalLevel,
} from '../../../src/sms/modem/health.js';
import { DEFAULT_IDENTITY, DEFAULT_RADIO, errorReply } from '../../../src/sms/modem/sim/sim-behaviours.js';
import { send } from '../../support/https-client.js';
import { eventually, smsPost } from '../api/support/sms-client.js';
import { ADMIN_PASSWORD, type SmsTestServer, startSmsServer } from '../api/support/sms-server.js';
import { type Harness, LINKS, openHarness } from './support/harness.js';

describe.each(LINKS)('modem health over the %s link', (kind) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  const poller = (harness: Harness) =>
    new HealthPoller(async (text) => (await harness.modem.command(text)).lines);

  it('reads every field from the simulator, and follows its switches', async () => {
    h = await openHarness(kind, { slots: 12 });
    await h.modem.start();
    h.sim.deliver('+15551230001', 'one message in storage');
    const p = poller(h);
    const first = await p.poll();
    expect(first).toEqual({
      registration: 'home',
      operator: DEFAULT_RADIO.operator,
      signal: { csq: 21, rssiDbm: -71, level: 4 },
      sim: 'ready',
      iccid: DEFAULT_RADIO.iccid,
      imsi: DEFAULT_IDENTITY.imsi,
      imei: DEFAULT_IDENTITY.imei,
      storage: { memory: 'SM', used: 1, total: 12 },
      errors: {},
    });

    h.sim.setRadio({ csq: 99, registration: 2 });
    const noSignal = await p.poll();
    expect([noSignal.registration, noSignal.operator, noSignal.signal]).toEqual([
      'searching',
      null,
      { csq: 99, rssiDbm: null, level: 0 },
    ]);

    h.sim.setRadio({ csq: 14, registration: 5, operator: 'Roam Partner' });
    const roaming = await p.poll();
    expect([roaming.registration, roaming.operator, roaming.signal.level]).toEqual([
      'roaming',
      'Roam Partner',
      2,
    ]);

    h.sim.setRadio({ sim: 'absent' });
    const noSim = await p.poll();
    expect(noSim).toMatchObject({
      sim: 'not_inserted',
      registration: 'not_registered',
      iccid: null,
      imsi: null,
    });
    expect(noSim.imei).toBe(DEFAULT_IDENTITY.imei);
    // A send without a SIM fails as a real modem's does.
    expect(h.sim.sent).toHaveLength(0);
  });

  it('finds the ICCID with whichever command the modem knows, and keeps using it', async () => {
    h = await openHarness(kind, { behaviours: { '+CCID': () => errorReply, '+ICCID': () => errorReply } });
    await h.modem.start();
    const p = poller(h);
    expect((await p.poll()).iccid).toBe(DEFAULT_RADIO.iccid);
    const before = h.sim.commands.length;
    expect((await p.poll()).iccid).toBe(DEFAULT_RADIO.iccid);
    const asked = h.sim.commands.slice(before).filter((c) => /CCID/.test(c));
    expect(asked).toEqual(['AT+QCCID']);
  });
});

describe('answers of real modems', () => {
  test('signal: +CSQ to dBm and bars at the edges', () => {
    expect([0, 1, 2, 9, 10, 14, 15, 19, 20, 24, 25, 31, 99].map((c) => [rssiDbm(c), signalLevel(c)])).toEqual(
      [
        [-113, 0],
        [-111, 1],
        [-109, 1],
        [-95, 1],
        [-93, 2],
        [-85, 2],
        [-83, 3],
        [-75, 3],
        [-73, 4],
        [-65, 4],
        [-63, 5],
        [-51, 5],
        [null, 0],
      ],
    );
  });

  test('registration, operator, storage and ICCID lines as Quectel, Simcom and Huawei print them', () => {
    expect(parseRegistration(['+CEREG: 2,5,"1A2B","01A2B3C4",7'], 'CEREG')).toBe(5);
    expect(parseRegistration(['+CREG: 0,1'], 'CREG')).toBe(1);
    expect(parseOperator(['+COPS: 0,0,"Vodafone.de Vodafone.de",7'])).toBe('Vodafone.de Vodafone.de');
    expect(parseOperator(['+COPS: 0'])).toBeNull();
    expect(parseCpms(['+CPMS: "ME",3,255,"ME",3,255,"ME",3,255'])).toEqual({
      memory: 'ME',
      used: 3,
      total: 255,
    });
    expect(parseIccid(['+QCCID: 89860318640220133897'])).toBe('89860318640220133897');
    expect(parseIccid(['+ICCID: 8944110068207036925F'])).toBe('8944110068207036925F');
    expect(parseIccid(['^ICCID: "98681031098310024233"'])).toBe('98681031098310024233');
    expect(parseIccid(['89014103211118510720'])).toBe('89014103211118510720');
  });
});

describe('modem status through the SMS service and the API', () => {
  let server: SmsTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test('status endpoints show every field; a signal loss and a SIM removal raise modem:state events', async () => {
    server = await startSmsServer('sqlite', { modem: 'sim-pty', sms: { statusPollMs: 100 } });
    const s = server;
    const sim = s.simulator;
    if (!sim) throw new Error('no simulator');
    const changes: ModemStateChange[] = [];
    s.sms.onModemState((c) => changes.push(c));
    const states = () => changes.map((c) => c.state);
    const status = async () => (await smsPost(s.url, '/api/sms/status', { auth: ADMIN_PASSWORD })).json();

    const first = await eventually('a first poll', async () => {
      const r = await status();
      return r.data.polled_at ? r : undefined;
    });
    expect(first.status).toBe('success');
    expect(first.data).toMatchObject({
      modem: 'ready',
      state: 'registered',
      registration: 'home',
      operator: DEFAULT_RADIO.operator,
      signal: { csq: 21, rssi_dbm: -71, level: 4 },
      sim: 'ready',
      iccid: DEFAULT_RADIO.iccid,
      imsi: DEFAULT_IDENTITY.imsi,
      imei: DEFAULT_IDENTITY.imei,
      storage: { memory: 'SM', used: 0 },
      last_error: null,
    });
    expect(first.data.device).toMatch(/^simulated modem on \/tmp\//);
    expect(first.data.polled_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    sim.setRadio({ csq: 99, registration: 2 });
    await eventually('lost', async () => (states().includes('lost') ? true : undefined));
    sim.setRadio({ csq: 18, registration: 1 });
    await eventually('recovered', async () => (states().includes('recovered') ? true : undefined));
    sim.setRadio({ sim: 'absent' });
    await eventually('sim_missing', async () => (states().includes('sim_missing') ? true : undefined));
    const missing = changes.find((c) => c.state === 'sim_missing');
    expect(missing?.reason).toBe('SIM not inserted');
    expect((await status()).data).toMatchObject({ state: 'sim_missing', sim: 'not_inserted', iccid: null });
    sim.setRadio({ sim: 'ready' });
    await eventually('recovered again', async () =>
      states().filter((x) => x === 'recovered').length === 2 ? true : undefined,
    );
    // In this order (a loaded machine may add a lost/recovered pair of its own when a poll times out).
    const expected = ['registered', 'lost', 'recovered', 'sim_missing', 'recovered'];
    let k = 0;
    for (const st of states()) if (st === expected[k]) k++;
    expect(k, states().join(' ')).toBe(expected.length);
    expect(changes[0]?.state).toBe('registered');
    expect(changes.find((c) => c.reason === 'registration searching, no signal')).toMatchObject({
      state: 'lost',
      previous: 'registered',
    });

    // The admin endpoint: refused without a session; with one, the same fields (refresh polls now).
    expect((await send(`${s.url}/api/modem/status`)).status).toBe(401);
    await ensureAdmin(s.store, ADMIN_PASSWORD);
    const login = await send(`${s.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    sim.setRadio({ csq: 7 });
    const admin = await send(`${s.url}/api/modem/status?refresh=1`, { headers: { cookie } });
    expect(admin.status).toBe(200);
    expect(admin.json()).toMatchObject({ state: 'registered', signal: { csq: 7, rssi_dbm: -99, level: 1 } });

    // The simulator's switches over HTTP, checked like any input.
    const bad = await smsPost(s.url, '/api/modem-sim/radio', { auth: ADMIN_PASSWORD, csq: 40 });
    expect(bad.status).toBe(400);
    expect(bad.json().error.message).toMatch(/^csq: expected 0-31 or 99/);
    const roam = await smsPost(s.url, '/api/modem-sim/radio', { auth: ADMIN_PASSWORD, registration: 5 });
    expect(roam.json().data.registration).toBe(5);
  }, 60_000);
});
