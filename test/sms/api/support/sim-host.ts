// A simulated modem in a process of its own, served on a pty, so a server using it can be killed
// and restarted while the SIM keeps its messages. Run: node bin/run-ts.js sim-host.ts --slots 10
// --seed 7 [--flaky-delete 0.1]. Prints {"event":"ready","path":...}; then takes JSON commands on stdin, one a line
// ({"id":1,"cmd":"deliver","from":"+1555...","text":"..."} | "state" | "sent" | "plan" | "faults"), and answers
// {"id":1,"result":...} on stdout. +CMGL lists the slots in a seeded random order, so the
// collector meets the parts of a message out of order.
import { createInterface } from 'node:readline';
import { seededRandom } from '../../../../src/shared/seeded-random.js';
import {
  createSimulatedModem,
  DEFAULT_BEHAVIOURS,
  type SimBehaviour,
  type SimFaults,
  servePty,
} from '../../../../src/sms/modem/index.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}

const random = seededRandom(arg('seed', 1));
const defaultList = DEFAULT_BEHAVIOURS['+CMGL'] as SimBehaviour;
const shuffledList: SimBehaviour = (command, ctx) => {
  const reply = defaultList(command, ctx);
  if (!('lines' in reply) || reply.lines.length < 4) return reply;
  const pairs: string[][] = [];
  for (let i = 0; i + 1 < reply.lines.length; i += 2)
    pairs.push([reply.lines[i] ?? '', reply.lines[i + 1] ?? '']);
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pairs[i], pairs[j]] = [pairs[j] ?? [], pairs[i] ?? []];
  }
  return { ...reply, lines: pairs.flat() };
};

// With --flaky-delete p, that share of AT+CMGD fail without deleting: the collector meets a PDU it
// already stored again, exactly as after a crash between its commit and the delete.
const flakyDelete = arg('flaky-delete', 0);
const defaultDelete = DEFAULT_BEHAVIOURS['+CMGD'] as SimBehaviour;
const flakyDeleteBehaviour: SimBehaviour = (command, ctx) =>
  command.op === 'set' && random() < flakyDelete ? ctx.cmsError(500) : defaultDelete(command, ctx);

// A send plan lets the next `pass` submits through, then refuses `fail` with +CMS ERROR 331.
const plan = { pass: 0, fail: 0 };
const defaultSend = DEFAULT_BEHAVIOURS['+CMGS'] as SimBehaviour;
const plannedSend: SimBehaviour = (command, ctx) => {
  const reply = defaultSend(command, ctx);
  if (!('prompt' in reply)) return reply;
  return {
    prompt: (payload) => {
      if (plan.pass > 0) plan.pass--;
      else if (plan.fail > 0) {
        plan.fail--;
        return ctx.cmsError(331);
      }
      return reply.prompt(payload);
    },
  };
};

const sim = createSimulatedModem({
  slots: arg('slots', 10),
  behaviours: { '+CMGL': shuffledList, '+CMGD': flakyDeleteBehaviour, '+CMGS': plannedSend },
});
const link = await servePty(sim);
const say = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);
say({ event: 'ready', path: link.path });

type Command =
  | { id: number; cmd: 'deliver'; from: string; text: string }
  | { id: number; cmd: 'state' }
  | { id: number; cmd: 'sent' }
  | { id: number; cmd: 'plan'; pass: number; fail: number }
  | { id: number; cmd: 'faults'; faults: { [K in keyof SimFaults]?: SimFaults[K] | null } };

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const c = JSON.parse(line) as Command;
  if (c.cmd === 'deliver') say({ id: c.id, result: sim.deliver(c.from, c.text) });
  else if (c.cmd === 'state')
    say({ id: c.id, result: { stored: sim.stored().length, held: sim.heldAtNetwork } });
  else if (c.cmd === 'sent')
    say({ id: c.id, result: sim.sent.map((m) => ({ to: m.to, text: m.text, concat: m.concat })) });
  else if (c.cmd === 'plan') {
    plan.pass = c.pass;
    plan.fail = c.fail;
    say({ id: c.id, result: plan });
  } else if (c.cmd === 'faults') {
    // JSON has no undefined: null clears a switch such as sendError.
    sim.setFaults(Object.fromEntries(Object.entries(c.faults).map(([k, v]) => [k, v ?? undefined])));
    say({ id: c.id, result: sim.faults });
  }
}
await link.close();
