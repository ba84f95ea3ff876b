// `branchgate extension add|list|set|remove`: PBX extensions and their CDR Access flag. Works while
// the server runs (the store is shared).
import type { Command } from 'commander';
import { addStoreOptions, type StoreFlags, withStore } from './store-options.js';

/** Adds the `extension` command group. */
export function registerExtension(program: Command): void {
  const group = program.command('extension').description('PBX extensions that may pull CDRs');

  addStoreOptions(
    group
      .command('add <number>')
      .description('add an extension')
      .requiredOption('--secret <secret>', "the extension's secret (its pull key is SHA-256 of it)")
      .option('--name <name>', 'display name')
      .option('--cdr-access', 'allow it to pull CDRs', false),
  ).action(async (number: string, o: StoreFlags & { secret: string; name?: string; cdrAccess: boolean }) => {
    const { addExtension } = await import('../auth/index.js');
    const ext = await withStore(o, (s) =>
      addExtension(s, { number, secret: o.secret, name: o.name, cdrAccess: o.cdrAccess }),
    );
    process.stdout.write(`added extension ${ext.number}${ext.cdrAccess ? ' (CDR Access)' : ''}\n`);
  });

  addStoreOptions(
    group.command('list').description('list extensions').option('--json', 'JSON output'),
  ).action(async (o: StoreFlags & { json?: boolean }) => {
    const { listExtensions } = await import('../auth/index.js');
    const list = await withStore(o, listExtensions);
    if (o.json) {
      process.stdout.write(
        `${JSON.stringify(list.map((e) => ({ number: e.number, name: e.name, cdr_access: e.cdrAccess })))}\n`,
      );
      return;
    }
    for (const e of list)
      process.stdout.write(`${e.number}\t${e.cdrAccess ? 'cdr-access' : '-'}\t${e.name}\n`);
  });

  addStoreOptions(
    group
      .command('set <number>')
      .description("change an extension's secret, name or CDR Access")
      .option('--secret <secret>', 'new secret')
      .option('--name <name>', 'new display name')
      .option('--cdr-access', 'allow CDR pull')
      .option('--no-cdr-access', 'forbid CDR pull'),
  ).action(
    async (number: string, o: StoreFlags & { secret?: string; name?: string; cdrAccess?: boolean }) => {
      const { setExtension } = await import('../auth/index.js');
      const ext = await withStore(o, (s) =>
        setExtension(s, number, { secret: o.secret, name: o.name, cdrAccess: o.cdrAccess }),
      );
      process.stdout.write(
        `updated extension ${ext.number}${ext.cdrAccess ? ' (CDR Access)' : ' (no CDR Access)'}\n`,
      );
    },
  );

  addStoreOptions(group.command('remove <number>').description('remove an extension')).action(
    async (number: string, o: StoreFlags) => {
      const { removeExtension } = await import('../auth/index.js');
      await withStore(o, (s) => removeExtension(s, number));
      process.stdout.write(`removed extension ${number}\n`);
    },
  );
}
