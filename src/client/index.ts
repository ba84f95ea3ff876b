// The typed client SDK (DESIGN.md section 3): CDR pull client, SMS client and push-receiver
// functions, written against the wire contracts so they work with any device that speaks them.

export {
  generateSecret as generateWebhookSecret,
  verifyWebhook,
  WebhookVerificationError,
} from '../shared/standard-webhooks.js';
export type {
  CdrIterateOptions,
  CdrIterationPage,
  CdrPage,
  CdrPageQuery,
  CdrPullAuth,
  CdrPullClientOptions,
  CdrWireRecord,
} from './cdr-pull-client.js';
export { CdrPullClient, loginAdminSession, MAX_LIMIT, recordProblem } from './cdr-pull-client.js';
export type { ClientErrorCode, ClientErrorDetails } from './client-error.js';
export { ClientError } from './client-error.js';
export type { ConnectionOptions } from './http-exchange.js';
export type {
  PushCredentials,
  PushedCdrRecord,
  PushHeaders,
  PushReadResult,
  PushRequest,
  ReadPushOptions,
} from './push-receiver.js';
export { headerOf, pushCredentialProblem, pushedRecordsOf, readCdrPush } from './push-receiver.js';
export type { SmsClientOptions, SmsMessage, SmsStatus, SmsType } from './sms-client.js';
export { SmsClient } from './sms-client.js';
