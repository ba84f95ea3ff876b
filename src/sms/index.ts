// The SMS area's public surface: the routes plugin, the service `serve` starts (modem, inbox
// collector, outbox), its options, and the message shape. The PDU codec and the modem layer have
// their own index.ts files (./pdu, ./modem).
export type { MessageStatus, MessageType, SmsMessage } from './message.js';
export type { ModemHealth, Registration } from './modem/health.js';
export type { ModemCondition, ModemStateChange, ModemStatusView } from './modem-monitor.js';
export { SmsError, type SmsErrorCode } from './sms-error.js';
export { type SmsLog, silentLog } from './sms-log.js';
export { DEFAULT_SMS_OPTIONS, type SmsOptions, smsOptionsFromEnv } from './sms-options.js';
export { SMS_BODY_LIMIT, smsRoutes } from './sms-routes.js';
export { createSmsService, type SmsGateway, SmsService, type SmsServiceParams } from './sms-service.js';
