// Every migration, in run order. Areas append theirs here (one line each).
import { coreMigration } from './20261122-01-core.js';
import { cdrPushMigration } from './20261122-10-cdr-push.js';
import { smsMigration } from './20261122-20-sms.js';
import { apiTokensMigration } from './20261124-00-api-tokens.js';
import { cdrIdentityMigration } from './20261124-10-cdr-identity.js';
import { ingestPositionMigration } from './20261124-20-ingest-position.js';
import { ingestSourcesMigration } from './20261124-30-ingest-sources.js';
import { smsNumberTypedMigration } from './20261125-00-sms-number-typed.js';
import { webhooksMigration } from './20261125-10-webhooks.js';
import { pushParkedMigration } from './20261125-20-push-parked.js';
import { pushDestinationsMigration } from './20261125-30-push-destinations.js';
import type { StoreMigration } from './migration.js';

/** All migrations the store runs on open, oldest first. */
export const MIGRATIONS: readonly StoreMigration[] = [
  coreMigration,
  cdrPushMigration,
  smsMigration,
  apiTokensMigration,
  cdrIdentityMigration,
  ingestPositionMigration,
  ingestSourcesMigration,
  smsNumberTypedMigration,
  webhooksMigration,
  pushParkedMigration,
  pushDestinationsMigration,
];
