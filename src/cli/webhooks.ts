// `branchgate webhooks list|add|update|remove|attempts|receive`: the webhooks of /api/webhooks from
// the machine itself, and a receiver that verifies Standard Webhooks signatures (for trying a
// webhook out, and for tests).
import type { Command } from 'commander';
import { AppError } from '../shared/errors.js';
import { addStoreOptions, type StoreFlags, withStore } from './store-options.js';

const collect = (value: string, previous: string[]) => [...previous, ...value.split(',').filter(Boolean)];

function idArg(id: string): number {
  if (!/^[1-9]\d{0,9}$/.test(id)) throw new AppError('usage', `webhook id "${id}": expected a number`);
  return Number(id);
}

/** Adds the `webhooks` command group. */
export function registerWebhooks(program: Command): void {
  const group = program
    .command('webhooks')
    .description('webhooks for SMS and modem events, signed per Standard Webhooks (docs/sms.md)');

  addStoreOptions(group.command('list').description('list webhooks').option('--json', 'JSON output')).action(
    async (o: StoreFlags & { json?: boolean }) => {
      const { listWebhooks, webhookJson } = await import('../webhooks/webhook-store.js');
      const list = (await withStore(o, listWebhooks)).map(webhookJson);
      if (o.json) {
        process.stdout.write(`${JSON.stringify(list)}\n`);
        return;
      }
      for (const w of list)
        process.stdout.write(
          `${w.id}\t${w.url}\t${w.events.join(',')}\t${w.signed ? 'signed' : 'unsigned'}\t${w.last_error ? `failing: ${w.last_error}` : 'ok'}\n`,
        );
    },
  );

  addStoreOptions(
    group
      .command('add <url>')
      .description('add a webhook; prints its secret once (generated unless --secret or --unsigned)')
      .requiredOption(
        '--event <type>',
        'sms:received, sms:sent, sms:delivered, sms:failed, modem:state (repeatable)',
        collect,
        [],
      )
      .option('--secret <whsec>', 'sign with this secret instead of a generated one')
      .option('--unsigned', 'deliver without signatures'),
  ).action(async (url: string, o: StoreFlags & { event: string[]; secret?: string; unsigned?: boolean }) => {
    const { addWebhook } = await import('../webhooks/webhook-store.js');
    const secret = o.unsigned ? null : o.secret;
    const { webhook, secret: shown } = await withStore(o, (s) =>
      addWebhook(s, { url, events: o.event, ...(secret === undefined ? {} : { secret }) }, Date.now()),
    );
    process.stderr.write(`added webhook ${webhook.id} for ${webhook.events.join(', ')}\n`);
    if (shown) {
      process.stderr.write('its secret, shown only now:\n');
      process.stdout.write(`${shown}\n`);
    }
  });

  addStoreOptions(
    group
      .command('update <id>')
      .description('change a webhook: --url, --event (replaces the list), --rotate-secret, --end-rotation')
      .option('--url <url>', 'deliver here')
      .option('--event <type>', 'the events (repeatable; replaces the list)', collect, [])
      .option('--rotate-secret', 'a new secret signs; the old one goes on signing until --end-rotation')
      .option('--end-rotation', 'the previous secret stops signing'),
  ).action(
    async (
      id: string,
      o: StoreFlags & { url?: string; event: string[]; rotateSecret?: boolean; endRotation?: boolean },
    ) => {
      const { updateWebhook } = await import('../webhooks/webhook-store.js');
      const patch: Record<string, unknown> = {};
      if (o.url) patch.url = o.url;
      if (o.event.length > 0) patch.events = o.event;
      if (o.rotateSecret) patch.secret = 'rotate';
      if (o.endRotation) patch.end_rotation = true;
      const { webhook, secret } = await withStore(o, (s) => updateWebhook(s, idArg(id), patch));
      process.stderr.write(`updated webhook ${webhook.id}\n`);
      if (secret) process.stdout.write(`${secret}\n`);
    },
  );

  addStoreOptions(group.command('remove <id>').description('remove a webhook')).action(
    async (id: string, o: StoreFlags) => {
      const { removeWebhook } = await import('../webhooks/webhook-store.js');
      await withStore(o, (s) => removeWebhook(s, idArg(id)));
      process.stdout.write(`removed webhook ${id}\n`);
    },
  );

  addStoreOptions(
    group
      .command('attempts <id>')
      .description("a webhook's newest delivery attempts")
      .option('--json', 'JSON output'),
  ).action(async (id: string, o: StoreFlags & { json?: boolean }) => {
    const { listAttempts } = await import('../webhooks/webhook-store.js');
    const attempts = await withStore(o, (s) => listAttempts(s, idArg(id)));
    if (o.json) {
      process.stdout.write(`${JSON.stringify(attempts)}\n`);
      return;
    }
    for (const a of attempts)
      process.stdout.write(
        `${new Date(a.atMs).toISOString()}\tevt_${a.eventId}\t${a.status ?? '-'}\t${a.latencyMs} ms\t${a.error || 'ok'}\n`,
      );
  });

  group
    .command('receive')
    .description(
      'receive webhooks: print each event as a JSON line; refuse (400) bad signatures and stale timestamps',
    )
    .option('--listen <host:port>', 'address to listen on', '127.0.0.1:9000')
    .option(
      '--secret <whsec>',
      'verify with this secret (repeatable: any one matching is enough)',
      collect,
      [],
    )
    .action(async (o: { listen: string; secret: string[] }) => {
      const { createServer } = await import('node:http');
      const { verifyWebhook, WebhookVerificationError } = await import('../shared/standard-webhooks.js');
      const m = /^(.*):(\d{1,5})$/.exec(o.listen);
      if (!m) throw new AppError('usage', `--listen "${o.listen}": expected HOST:PORT`);
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          try {
            if (o.secret.length > 0) verifyWebhook(req.headers, body, o.secret);
          } catch (err) {
            if (!(err instanceof WebhookVerificationError)) throw err;
            process.stderr.write(`refused ${req.headers['webhook-id'] ?? '(no id)'}: ${err.message}\n`);
            res.writeHead(400, { 'content-type': 'text/plain' }).end(`${err.message}\n`);
            return;
          }
          process.stdout.write(
            `${JSON.stringify({ id: req.headers['webhook-id'], event: JSON.parse(body) })}\n`,
          );
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(Number(m[2]), m[1], resolve));
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : m[2];
      process.stderr.write(`receiving webhooks on http://${m[1]}:${port}/\n`);
      await new Promise<void>((resolve) => process.once('SIGTERM', resolve));
      server.close();
    });
}
