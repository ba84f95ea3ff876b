// What the simulated modem answers to each AT command: one handler per command name, replaceable
// through SimulatedModemOptions.behaviours. Answers follow 3GPP TS 27.005/27.007 in PDU mode.
import type { SimCommand } from './sim-command-line.js';
import type { SimStorage } from './sim-storage.js';

/** A reply: information lines and a final result, or a `> ` prompt whose payload gives the reply. */
export type SimReply = { lines: string[]; final: string } | { prompt: (payload: string) => SimReply };

/** Mutable state of the simulated modem that commands read and change. */
export interface SimState {
  echo: boolean;
  /** +CMEE: 0 plain ERROR, 1 numeric, 2 verbose. */
  cmee: number;
  cmgf: number;
  cnmi: { mode: number; mt: number; bm: number; ds: number; bfr: number };
  smsc: string;
  charset: string;
  /** Answers left to give +CME ERROR 14 (SIM busy) to AT+CPIN?. */
  simBusyLeft: number;
  /** The radio and the SIM as the status commands report them (SimulatedModem.setRadio). */
  radio: SimRadio;
}

/** What +CSQ, +CREG/+CEREG, +COPS, +CPIN and the ICCID commands answer. */
export interface SimRadio {
  /** +CSQ <rssi>: 0-31, 99 not known. */
  csq: number;
  /** <stat> of +CREG and +CEREG: 0 not registered, 1 home, 2 searching, 3 denied, 5 roaming. */
  registration: number;
  /** The operator's name (+COPS) while registered. */
  operator: string;
  /** ready, absent (+CME ERROR: 10), or waiting for a PIN (+CPIN: SIM PIN). */
  sim: 'ready' | 'absent' | 'pin';
  iccid: string;
}

/** The radio of a simulated modem at home with a good signal. */
export const DEFAULT_RADIO: SimRadio = {
  csq: 21,
  registration: 1,
  operator: 'Simulated Network',
  sim: 'ready',
  iccid: '89010000000000000019',
};

const registered = (r: SimRadio) => r.sim !== 'absent' && (r.registration === 1 || r.registration === 5);

/** Who the simulated modem says it is. */
export interface SimIdentity {
  manufacturer: string;
  model: string;
  revision: string;
  imei: string;
  imsi: string;
  ownNumber: string;
}

/** What a behaviour can use. */
export interface SimContext {
  readonly state: SimState;
  readonly storage: SimStorage;
  readonly identity: SimIdentity;
  /** True while the storage-full fault is on. */
  readonly storageFull: boolean;
  /** A +CME ERROR in the format +CMEE asks for. */
  cmeError(code: number): SimReply;
  /** A +CMS ERROR. */
  cmsError(code: number): SimReply;
  /** Handles a PDU sent with AT+CMGS. */
  submit(pdu: string, tpduLength: number): SimReply;
  /** Called after a slot was freed, so held network messages can come in. */
  slotsFreed(): void;
}

/** Answers one command. */
export type SimBehaviour = (command: SimCommand, ctx: SimContext) => SimReply;

const ok = (...lines: string[]): SimReply => ({ lines, final: 'OK' });
const CME_TEXT: Readonly<Record<number, string>> = {
  3: 'operation not allowed',
  4: 'operation not supported',
  10: 'SIM not inserted',
  11: 'SIM PIN required',
  14: 'SIM busy',
  21: 'invalid index',
};

/** The generic "ERROR" (unknown command or bad syntax). */
export const errorReply: SimReply = { lines: [], final: 'ERROR' };

/** Formats a +CME ERROR for the current +CMEE mode. */
export function cmeErrorReply(state: SimState, code: number): SimReply {
  if (state.cmee === 0) return errorReply;
  if (state.cmee === 2) return { lines: [], final: `+CME ERROR: ${CME_TEXT[code] ?? code}` };
  return { lines: [], final: `+CME ERROR: ${code}` };
}

/** The registration <stat> answered (none without a SIM). */
const stat = (ctx: SimContext) => (ctx.state.radio.sim === 'absent' ? 0 : ctx.state.radio.registration);

function iccid(cmd: SimCommand, ctx: SimContext, prefix: string): SimReply {
  if (cmd.op === 'test') return ok();
  if (ctx.state.radio.sim === 'absent') return ctx.cmeError(10);
  return ok(`${prefix}: ${ctx.state.radio.iccid}`);
}

const identityValue =
  (pick: (id: SimIdentity) => string): SimBehaviour =>
  (cmd, ctx) =>
    cmd.op === 'test' ? ok() : ok(pick(ctx.identity));

const flag =
  (apply: (state: SimState, value: number) => void, read?: (state: SimState) => string): SimBehaviour =>
  (cmd, ctx) => {
    if (cmd.op === 'read' && read !== undefined) return ok(read(ctx.state));
    if (cmd.op === 'test') return ok();
    const value = Number(cmd.args[0] ?? '0');
    if (!Number.isInteger(value)) return errorReply;
    apply(ctx.state, value);
    return ok();
  };

function cpmsTriple(ctx: SimContext): string {
  const used = ctx.storageFull ? ctx.storage.size : ctx.storage.used;
  return `${used},${ctx.storage.size}`;
}

function listStatusFilter(arg: string | undefined): number | undefined {
  const stat = Number(arg ?? '0');
  return Number.isInteger(stat) && stat >= 0 && stat <= 4 ? stat : undefined;
}

/** The default answer of every supported command, by name. */
export const DEFAULT_BEHAVIOURS: Readonly<Record<string, SimBehaviour>> = {
  '': () => ok(),
  E: flag((s, v) => {
    s.echo = v === 1;
  }),
  V: () => ok(),
  Q: () => ok(),
  X: () => ok(),
  '&C': () => ok(),
  '&D': () => ok(),
  '&K': () => ok(),
  Z: (_c, ctx) => {
    ctx.state.cmee = 0;
    return ok();
  },
  '&F': (_c, ctx) => {
    ctx.state.cmee = 0;
    return ok();
  },
  I: (_c, ctx) => ok(ctx.identity.manufacturer, ctx.identity.model, `Revision: ${ctx.identity.revision}`),
  '+CGMI': identityValue((id) => id.manufacturer),
  '+GMI': identityValue((id) => id.manufacturer),
  '+CGMM': identityValue((id) => id.model),
  '+GMM': identityValue((id) => id.model),
  '+CGMR': identityValue((id) => id.revision),
  '+GMR': identityValue((id) => id.revision),
  '+CGSN': identityValue((id) => id.imei),
  '+GSN': identityValue((id) => id.imei),
  '+CIMI': (cmd, ctx) =>
    cmd.op === 'test'
      ? ok()
      : ctx.state.radio.sim === 'ready'
        ? ok(ctx.identity.imsi)
        : ctx.cmeError(ctx.state.radio.sim === 'absent' ? 10 : 11),
  // The ICCID as Simcom/Telit (+CCID, +ICCID) and Quectel (+QCCID) modems print it.
  '+CCID': (cmd, ctx) => iccid(cmd, ctx, '+CCID'),
  '+ICCID': (cmd, ctx) => iccid(cmd, ctx, '+ICCID'),
  '+QCCID': (cmd, ctx) => iccid(cmd, ctx, '+QCCID'),
  '+CNUM': (_c, ctx) => ok(`+CNUM: "","${ctx.identity.ownNumber}",145`),
  '+CMEE': flag(
    (s, v) => {
      s.cmee = v;
    },
    (s) => `+CMEE: ${s.cmee}`,
  ),
  '+CPIN': (cmd, ctx) => {
    if (cmd.op === 'test') return ok();
    if (cmd.op !== 'read') return ctx.cmeError(3);
    if (ctx.state.simBusyLeft > 0) {
      ctx.state.simBusyLeft--;
      return ctx.cmeError(14);
    }
    if (ctx.state.radio.sim === 'absent') return ctx.cmeError(10);
    return ok(ctx.state.radio.sim === 'pin' ? '+CPIN: SIM PIN' : '+CPIN: READY');
  },
  '+CFUN': (cmd) =>
    cmd.op === 'read' ? ok('+CFUN: 1') : cmd.op === 'test' ? ok('+CFUN: (0,1,4),(0,1)') : ok(),
  '+CSQ': (cmd, ctx) =>
    cmd.op === 'test' ? ok('+CSQ: (0-31,99),(0-7,99)') : ok(`+CSQ: ${ctx.state.radio.csq},99`),
  '+CREG': (cmd, ctx) =>
    cmd.op === 'read' ? ok(`+CREG: 0,${stat(ctx)}`) : cmd.op === 'test' ? ok('+CREG: (0-2)') : ok(),
  '+CGREG': (cmd, ctx) => (cmd.op === 'read' ? ok(`+CGREG: 0,${stat(ctx)}`) : ok()),
  '+CEREG': (cmd, ctx) => (cmd.op === 'read' ? ok(`+CEREG: 0,${stat(ctx)}`) : ok()),
  '+COPS': (cmd, ctx) =>
    cmd.op === 'read'
      ? ok(registered(ctx.state.radio) ? `+COPS: 0,0,"${ctx.state.radio.operator}",7` : '+COPS: 0')
      : cmd.op === 'test'
        ? ok(`+COPS: (2,"${ctx.state.radio.operator}","SimNet","00101",7),,(0-4),(0-2)`)
        : ok(),
  '+CSCS': (cmd, ctx) => {
    if (cmd.op === 'read') return ok(`+CSCS: "${ctx.state.charset}"`);
    if (cmd.op === 'test') return ok('+CSCS: ("GSM","IRA","UCS2")');
    const cs = (cmd.args[0] ?? '').toUpperCase();
    if (!['GSM', 'IRA', 'UCS2'].includes(cs)) return ctx.cmeError(4);
    ctx.state.charset = cs;
    return ok();
  },
  '+CSMS': (cmd) =>
    cmd.op === 'read' ? ok('+CSMS: 0,1,1,1') : cmd.op === 'test' ? ok('+CSMS: (0,1)') : ok('+CSMS: 1,1,1'),
  '+CMGF': (cmd, ctx) => {
    if (cmd.op === 'read') return ok(`+CMGF: ${ctx.state.cmgf}`);
    if (cmd.op === 'test') return ok('+CMGF: (0)');
    if (cmd.args[0] !== '0') return ctx.cmsError(303);
    ctx.state.cmgf = 0;
    return ok();
  },
  '+CPMS': (cmd, ctx) => {
    if (cmd.op === 'test') return ok('+CPMS: ("SM"),("SM"),("SM")');
    const t = cpmsTriple(ctx);
    if (cmd.op === 'read') return ok(`+CPMS: "SM",${t},"SM",${t},"SM",${t}`);
    if (cmd.args.length === 0 || cmd.args.some((a) => a !== '' && a.toUpperCase() !== 'SM'))
      return ctx.cmsError(302);
    return ok(`+CPMS: ${t},${t},${t}`);
  },
  '+CNMI': (cmd, ctx) => {
    const c = ctx.state.cnmi;
    if (cmd.op === 'read') return ok(`+CNMI: ${c.mode},${c.mt},${c.bm},${c.ds},${c.bfr}`);
    if (cmd.op === 'test') return ok('+CNMI: (0-2),(0-1),(0),(0-2),(0,1)');
    const [mode, mt, bm, ds, bfr] = cmd.args.map((a) => (a === '' ? 0 : Number(a)));
    if ([mode, mt, bm, ds, bfr].some((v) => v !== undefined && !Number.isInteger(v)))
      return ctx.cmsError(302);
    ctx.state.cnmi = { mode: mode ?? 0, mt: mt ?? 0, bm: bm ?? 0, ds: ds ?? 0, bfr: bfr ?? 0 };
    return ok();
  },
  '+CSCA': (cmd, ctx) => {
    if (cmd.op === 'read')
      return ok(`+CSCA: "${ctx.state.smsc}",${ctx.state.smsc.startsWith('+') ? 145 : 129}`);
    if (cmd.op === 'test') return ok();
    ctx.state.smsc = cmd.args[0] ?? '';
    return ok();
  },
  '+CSMP': (cmd) => (cmd.op === 'read' ? ok('+CSMP: 17,167,0,0') : ok()),
  '+CSDH': (cmd) => (cmd.op === 'read' ? ok('+CSDH: 0') : ok()),
  '+CNMA': () => ok(),
  '+CMGL': (cmd, ctx) => {
    if (cmd.op === 'test') return ok('+CMGL: (0-4)');
    const stat = listStatusFilter(cmd.args[0]);
    if (stat === undefined) return ctx.cmsError(302);
    const lines: string[] = [];
    for (const slot of ctx.storage.list()) {
      if (stat !== 4 && slot.status !== stat) continue;
      lines.push(`+CMGL: ${slot.index},${slot.status},,${slot.tpduLength}`, slot.pdu);
      if (slot.status === 0) ctx.storage.mark(slot.index, 1);
    }
    return { lines, final: 'OK' };
  },
  '+CMGR': (cmd, ctx) => {
    if (cmd.op === 'test') return ok();
    const index = Number(cmd.args[0]);
    if (!ctx.storage.inRange(index)) return ctx.cmsError(321);
    const slot = ctx.storage.get(index);
    if (slot === undefined) return ok();
    if (slot.status === 0) ctx.storage.mark(index, 1);
    return ok(`+CMGR: ${slot.status},,${slot.tpduLength}`, slot.pdu);
  },
  '+CMGD': (cmd, ctx) => {
    if (cmd.op === 'test') return ok(`+CMGD: (1-${ctx.storage.size}),(0-4)`);
    const index = Number(cmd.args[0]);
    const delflag = Number(cmd.args[1] ?? '0');
    if (delflag > 0) {
      const drop: Record<number, (s: number) => boolean> = {
        1: (s) => s === 1,
        2: (s) => s === 1 || s === 3,
        3: (s) => s !== 0,
        4: () => true,
      };
      const pick = drop[delflag];
      if (pick === undefined) return ctx.cmsError(302);
      for (const slot of ctx.storage.list()) if (pick(slot.status)) ctx.storage.delete(slot.index);
    } else {
      if (!ctx.storage.inRange(index)) return ctx.cmsError(321);
      ctx.storage.delete(index);
    }
    ctx.slotsFreed();
    return ok();
  },
  '+CMGS': (cmd, ctx) => {
    if (cmd.op === 'test') return ok();
    const length = Number(cmd.args[0]);
    if (cmd.op !== 'set' || !Number.isInteger(length) || length < 1 || length > 164) return ctx.cmsError(304);
    return { prompt: (payload) => ctx.submit(payload, length) };
  },
  '+CMGW': (cmd, ctx) => {
    if (cmd.op === 'test') return ok();
    const length = Number(cmd.args[0]);
    if (!Number.isInteger(length) || length < 1) return ctx.cmsError(304);
    return {
      prompt: (payload) => {
        if (ctx.storageFull) return ctx.cmsError(322);
        const index = ctx.storage.add(
          Number(cmd.args[1] ?? '2') === 3 ? 3 : 2,
          payload.toUpperCase(),
          length,
        );
        return index === undefined ? ctx.cmsError(322) : ok(`+CMGW: ${index}`);
      },
    };
  },
  '+CBC': () => ok('+CBC: 0,100,4200'),
  '+CCLK': (cmd) => (cmd.op === 'read' ? ok('+CCLK: "26/01/01,00:00:00+00"') : ok()),
  '+CLIP': () => ok(),
  '+CRC': () => ok(),
  '+CMUX': () => errorReply,
  '+CPBS': (cmd) =>
    cmd.op === 'test' ? ok('+CPBS: ("SM")') : cmd.op === 'read' ? ok('+CPBS: "SM",0,100') : ok(),
  '+CGDCONT': () => ok(),
  '+CLAC': () => ok(),
  '+CHUP': () => ok(),
};

/** Identity of the simulated modem unless options say otherwise. */
export const DEFAULT_IDENTITY: SimIdentity = {
  manufacturer: 'branchgate',
  model: 'SIMULATED-LTE',
  revision: 'branchgate-sim 1.0',
  imei: '356938035643809',
  imsi: '001010123456789',
  ownNumber: '+15550001000',
};
