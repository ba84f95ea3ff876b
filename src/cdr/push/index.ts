// The CDR push area: settings, the delivery job, replay, the delivery log, REST routes and the
// test receiver. src/server composes cdrPushRoutes and startCdrPushJob; the CLI uses the rest.

export { seededRandom } from '../../shared/seeded-random.js';
export { type DeliveryAttempt, listDeliveryLog } from './delivery-log.js';
export { type RunOutcome, type RunResult, runDelivery } from './delivery-run.js';
export { type HttpAnswer, HttpSender } from './http-sender.js';
export { countParked, listParked, type ParkedRecord, type ResendResult, resendParked } from './parked.js';
export { CdrPushError, type CdrPushErrorCode } from './push-error.js';
export { type CdrPushJob, type CdrPushJobOptions, startCdrPushJob } from './push-job.js';
export type { PushLogger } from './push-logger.js';
export { backlogOf, type PushState, readPushState, replayFrom } from './push-state.js';
export {
  type CdrReceiver,
  type ReceivedRequest,
  type ReceiverOptions,
  startCdrReceiver,
} from './receiver.js';
export { type CdrPushDeps, cdrPushRoutes } from './routes.js';
export {
  applyPatch,
  type CdrPushSettings,
  type CdrPushSettingsView,
  DEFAULT_CDR_PUSH_SETTINGS,
  settingsView,
} from './settings.js';
export {
  createDestination,
  type Destination,
  deleteDestination,
  FIRST_DESTINATION,
  findCdrPushSettings,
  listDestinations,
  loadCdrPushSettings,
  saveCdrPushSettings,
} from './settings-store.js';
export { sendTestRecord } from './test-record.js';
