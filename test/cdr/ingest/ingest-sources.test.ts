// Sources added at run time: `branchgate ingest add|list|remove` against a running `serve`, the
// source starting at once, kept across a restart, and its secret never shown back.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { createToken } from '../../../src/auth/index.js';
import { listCdrRecordsAfter } from '../../../src/cdr/record-store.js';
import { openStore } from '../../../src/store/index.js';
import { createTestDatabase, storeKinds } from '../../support/databases.js';
import { BIN, type ServeProcess, spawnServe } from '../../support/serve-process.js';
import { CAPTURE_EVENTS, startAmiPeer } from './support/ami-peer.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'bg-ingest-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SECRET = 'added-at-run-time-s3cret';

describe.each(storeKinds())('ingest sources added at run time on %s', (kind) => {
  test('add starts a source at once, it survives a restart, list hides the secret, remove stops it', async () => {
    const database = await createTestDatabase(kind);
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const peer = await startAmiPeer({ events: CAPTURE_EVENTS });
    const args = [
      '--data-dir',
      dataDir,
      '--db',
      database.url,
      '--listen',
      '127.0.0.1:0',
      '--ingest-csv',
      join(dataDir, 'Master.csv'),
    ];
    const env = { BRANCHGATE_ADMIN_PASSWORD: 'correct horse battery' };
    const store = await openStore({ db: database.url });
    let server: ServeProcess | undefined;
    try {
      const { token } = await createToken(store, { name: 'ops', scopes: ['admin'] });
      const cliEnv = {
        ...process.env,
        OPS_TOKEN: token,
        AMI_SOURCE: `ami://branchgate:${SECRET}@127.0.0.1:${peer.port}`,
      };
      const cli = (...a: string[]) =>
        run(
          process.execPath,
          [
            BIN,
            'ingest',
            ...a,
            '--url',
            (server as ServeProcess).url,
            '--insecure',
            '--token-env',
            'OPS_TOKEN',
          ],
          {
            env: cliEnv,
          },
        );
      server = await spawnServe(args, { env });
      const added = await cli('add', 'ami', '--source-env', 'AMI_SOURCE');
      expect(added.stdout).toBe(
        `added ami:127.0.0.1:${peer.port} (ami://branchgate@127.0.0.1:${peer.port})\n`,
      );
      for (let i = 0; i < 200 && (await listCdrRecordsAfter(store, 0, 100)).length < 28; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(await listCdrRecordsAfter(store, 0, 100)).toHaveLength(28);

      const again = await cli('add', 'ami', '--source-env', 'AMI_SOURCE').catch((e: { stderr: string }) => e);
      expect((again as { stderr: string }).stderr).toContain('is already an ingest source');

      await server.stop('SIGTERM');
      server = await spawnServe(args, { env });
      const list = JSON.parse((await cli('list', '--json')).stdout);
      expect(list.sources).toEqual([
        {
          id: `csv:${join(dataDir, 'Master.csv')}`,
          kind: 'csv',
          target: join(dataDir, 'Master.csv'),
          origin: 'flag',
        },
        {
          id: `ami:127.0.0.1:${peer.port}`,
          kind: 'ami',
          target: `ami://branchgate@127.0.0.1:${peer.port}`,
          origin: 'stored',
        },
      ]);
      const status = JSON.parse((await cli('status', '--json')).stdout);
      expect(status.sources.map((s: { id: string }) => s.id)).toContain(`ami:127.0.0.1:${peer.port}`);

      const flagRemoval = await cli('remove', `csv:${join(dataDir, 'Master.csv')}`).catch(
        (e: { stderr: string }) => e,
      );
      expect((flagRemoval as { stderr: string }).stderr).toContain('is given by a serve flag');
      expect((await cli('remove', `ami:127.0.0.1:${peer.port}`)).stdout).toBe(
        `removed ami:127.0.0.1:${peer.port}\n`,
      );
      const after = JSON.parse((await cli('status', '--json')).stdout);
      expect(after.sources.map((s: { id: string }) => s.id)).not.toContain(`ami:127.0.0.1:${peer.port}`);
      const bad = await run(
        process.execPath,
        [
          BIN,
          'ingest',
          'add',
          'ami',
          '--url',
          server.url,
          '--insecure',
          '--token-env',
          'OPS_TOKEN',
          '--source-env',
          'BAD',
        ],
        {
          env: { ...cliEnv, BAD: 'ami://nobody@127.0.0.1' },
        },
      ).catch((e: { stderr: string }) => e);
      expect((bad as { stderr: string }).stderr).toContain('a manager user and secret are required');

      await server.stop('SIGTERM');
      expect(server.output() + list.sources.map((s: { target: string }) => s.target).join()).not.toContain(
        SECRET,
      );
    } finally {
      await server?.stop('SIGKILL');
      await peer.close();
      await store.close();
      await database.drop();
    }
  }, 120_000);
});
