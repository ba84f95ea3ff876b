// `branchgate token create|list|revoke`: API tokens for scripts and exchanges. The token is printed
// once, by create, and never again: only its hash is stored.
import type { Command } from 'commander';
import { addStoreOptions, type StoreFlags, withStore } from './store-options.js';

const collect = (value: string, previous: string[]) => [...previous, ...value.split(',').filter(Boolean)];

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

/** Adds the `token` command group. */
export function registerToken(program: Command): void {
  const group = program.command('token').description('API tokens (Authorization: Bearer bgt_...)');

  addStoreOptions(
    group
      .command('create <name>')
      .description(
        'create a token and print it once (scopes: admin, cdr:ingest, cdr:read, geo:lookup, metrics, sms)',
      )
      .option('--scope <scope>', 'a scope the token grants (repeatable, or comma-separated)', collect, []),
  ).action(async (name: string, o: StoreFlags & { scope: string[] }) => {
    const { createToken } = await import('../auth/index.js');
    const { token, info } = await withStore(o, (s) => createToken(s, { name, scopes: o.scope }));
    process.stderr.write(
      `created API token ${info.id} "${info.name}" (${info.scopes.join(' ')}); it is shown only now:\n`,
    );
    process.stdout.write(`${token}\n`);
  });

  addStoreOptions(group.command('list').description('list tokens').option('--json', 'JSON output')).action(
    async (o: StoreFlags & { json?: boolean }) => {
      const { listTokens } = await import('../auth/index.js');
      const list = await withStore(o, listTokens);
      if (o.json) {
        process.stdout.write(`${JSON.stringify(list)}\n`);
        return;
      }
      for (const t of list) {
        const state = t.revokedAtMs === null ? 'active' : `revoked ${iso(t.revokedAtMs)}`;
        process.stdout.write(
          `${t.id}\t${t.name}\t${t.prefix}...\t${t.scopes.join(',')}\tlast used ${iso(t.lastUsedMs)}\t${state}\n`,
        );
      }
    },
  );

  addStoreOptions(
    group.command('revoke <id>').description('revoke a token (it stops working at once)'),
  ).action(async (id: string, o: StoreFlags) => {
    const { AuthError, revokeToken } = await import('../auth/index.js');
    if (!/^\d{1,9}$/.test(id)) throw new AuthError('bad_token', `token id "${id}": expected a number`);
    const info = await withStore(o, (s) => revokeToken(s, Number(id)));
    process.stdout.write(`revoked API token ${info.id} "${info.name}"\n`);
  });
}
