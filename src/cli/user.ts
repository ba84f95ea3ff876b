// `branchgate user add|list|passwd`: console users. A password comes from --password, or from
// stdin when it is not a terminal (so it stays out of shell history), never from argv in logs.
import { type Command, Option } from 'commander';
import { AppError } from '../shared/errors.js';
import { addStoreOptions, type StoreFlags, withStore } from './store-options.js';

async function readPassword(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (process.stdin.isTTY)
    throw new AppError('bad_password', 'give --password, or pipe the password on stdin');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (!text) throw new AppError('bad_password', 'no password on stdin');
  return text;
}

/** Adds the `user` command group. */
export function registerUser(program: Command): void {
  const group = program.command('user').description('console users');

  addStoreOptions(
    group
      .command('add <username>')
      .description('add a user (not an administrator unless --admin)')
      .addOption(new Option('--password <password>', 'password (or pipe it on stdin)'))
      .option('--admin', 'make the user an administrator', false),
  ).action(async (username: string, o: StoreFlags & { password?: string; admin: boolean }) => {
    const { addUser } = await import('../auth/index.js');
    const password = await readPassword(o.password);
    await withStore(o, (s) => addUser(s, { username, password, isAdmin: o.admin }));
    process.stdout.write(`added user ${username}${o.admin ? ' (admin)' : ''}\n`);
  });

  addStoreOptions(group.command('list').description('list users')).action(async (o: StoreFlags) => {
    const { listUsers } = await import('../auth/index.js');
    for (const u of await withStore(o, listUsers)) {
      process.stdout.write(`${u.username}\t${u.isAdmin ? 'admin' : 'user'}\n`);
    }
  });

  addStoreOptions(
    group
      .command('passwd <username>')
      .description("set a user's password (ends the user's sessions)")
      .addOption(new Option('--password <password>', 'new password (or pipe it on stdin)')),
  ).action(async (username: string, o: StoreFlags & { password?: string }) => {
    const { setUserPassword } = await import('../auth/index.js');
    const password = await readPassword(o.password);
    await withStore(o, (s) => setUserPassword(s, username, password));
    process.stdout.write(`password of ${username} changed\n`);
  });

  addStoreOptions(
    group
      .command('set-admin <username>')
      .description('grant administrator rights (--no-admin takes them; the last administrator keeps them)')
      .option('--no-admin', 'take the rights instead'),
  ).action(async (username: string, o: StoreFlags & { admin: boolean }) => {
    const { setUserAdmin } = await import('../auth/index.js');
    const user = await withStore(o, (s) => setUserAdmin(s, username, o.admin));
    process.stdout.write(
      `${user.username} is ${user.isAdmin ? 'an administrator' : 'not an administrator'}\n`,
    );
  });

  addStoreOptions(
    group
      .command('remove <username>')
      .description('remove a user and end their sessions (not the last administrator)'),
  ).action(async (username: string, o: StoreFlags) => {
    const { removeUser } = await import('../auth/index.js');
    await withStore(o, (s) => removeUser(s, username));
    process.stdout.write(`removed user ${username}\n`);
  });
}
