// A simulated modem in a process of its own, served on a pty, so a server using it can be killed
// and restarted while the SIM keeps its messages. Run: node bin/run-ts.js sim-host.ts --slots 10
// --seed 7 [--flaky-delete 0.1]. Prints {"event":"ready","path":...}; then takes JSON commands on stdin, one a line
// ({"id":1,"cmd":"deliver","from":"+1555...","text":"..."} | "state" | "faults"), and answers
// {"id":1,"result":...} on stdout. +CMGL lists the slots in a seeded random order, so the
// collector meets the parts of a message out of order.
import { createInterface } from 'node:readline';
import {
  createSimulatedModem,
  DEFAULT_BEHAVIOURS,
  type SimBehaviour,
  type SimFaults,
  servePty,
} from '../../../../src/sms/modem/index.js';
import { seededRandom } from './seeded-random.js';

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

const sim = createSimulatedModem({
  slots: arg('slots', 10),
  behaviours: { '+CMGL': shuffledList, '+CMGD': flakyDeleteBehaviour },
});
const link = await servePty(sim);
const say = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);
say({ event: 'ready', path: link.path });

type Command =
  | { id: number; cmd: 'deliver'; from: string; text: string }
  | { id: number; cmd: 'state' }
  | { id: number; cmd: 'faults'; faults: Partial<SimFaults> };

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const c = JSON.parse(line) as Command;
  if (c.cmd === 'deliver') say({ id: c.id, result: sim.deliver(c.from, c.text) });
  else if (c.cmd === 'state')
    say({ id: c.id, result: { stored: sim.stored().length, held: sim.heldAtNetwork } });
  else if (c.cmd === 'faults') {
    sim.setFaults(c.faults);
    say({ id: c.id, result: sim.faults });
  }
}
await link.close();
