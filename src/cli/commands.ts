// The list of command groups; one register function per file in src/cli/.
import type { Command } from 'commander';
import { registerBackup } from './backup.js';
import { registerCdr } from './cdr.js';
import { registerClient } from './client.js';
import { registerConfig } from './config.js';
import { registerExtension } from './extension.js';
import { registerGeo } from './geo.js';
import { registerIngest } from './ingest.js';
import { registerModemSim } from './modem-sim.js';
import { registerServe } from './serve.js';
import { registerSettings } from './settings.js';
import { registerSms } from './sms.js';
import { registerToken } from './token.js';
import { registerUser } from './user.js';
import { registerWebhooks } from './webhooks.js';

/** Adds every command group to the program. */
export function registerCommands(program: Command): void {
  registerServe(program);
  registerConfig(program);
  registerExtension(program);
  registerUser(program);
  registerWebhooks(program);
  registerBackup(program);
  registerToken(program);
  registerCdr(program);
  registerIngest(program);
  registerSettings(program);
  registerGeo(program);
  registerModemSim(program);
  registerSms(program);
  registerClient(program);
}
