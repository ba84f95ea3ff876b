// `branchgate sms decode-pdu [HEX...]`: decodes PDUs as modems print them (SMSC octet first) into
// JSON, from the arguments or one per line on stdin. A PDU that cannot be decoded gives
// {"pdu","error"} and the next one is decoded all the same; the exit status is 1 if any failed.
import type { Command } from 'commander';

interface DecodeFlags {
  json?: boolean;
  smsc: boolean;
}

async function* pdusOf(args: string[]): AsyncGenerator<string> {
  if (args.length > 0) {
    yield* args;
    return;
  }
  const { createInterface } = await import('node:readline');
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
    const text = line.trim();
    if (text !== '') yield text;
  }
}

/** Adds the `sms` command group. */
export function registerSms(program: Command): void {
  const group = program.command('sms').description('SMS tools that need no server');
  group
    .command('decode-pdu [hex...]')
    .description(
      'decode hex PDUs as a modem prints them (+CMGL, +CMGR, +CMT, +CDS) into JSON; stdin when none given',
    )
    .option('--json', 'one JSON object per line (default: indented)')
    .option('--no-smsc', 'the PDUs start at the TPDU (no SMSC length octet)')
    .action(async (args: string[], flags: DecodeFlags) => {
      const { decodePdu, PduError } = await import('../sms/pdu/index.js');
      const { decodedPduJson } = await import('../sms/pdu/pdu-json.js');
      let failed = 0;
      for await (const pdu of pdusOf(args)) {
        let out: Record<string, unknown>;
        try {
          out = { pdu, ...decodedPduJson(decodePdu(pdu, { smscPrefix: flags.smsc })) };
        } catch (err) {
          if (!(err instanceof PduError)) throw err;
          failed++;
          out = { pdu, error: err.message };
        }
        process.stdout.write(`${flags.json ? JSON.stringify(out) : JSON.stringify(out, null, 2)}\n`);
      }
      if (failed > 0) process.exitCode = 1;
    });
}
