// "Send test record": one request with the saved settings carrying a synthetic record (db_id 0,
// call_id branchgate-test-<ms>) and Idempotency-Key cdr-test-<ms>, so a receiver can tell it from
// real records. The cursor does not move; the attempt is logged with kind "test".
import type { Clock } from '../../shared/clock.js';
import type { Store } from '../../store/index.js';
import type { CdrWireRecord } from '../record.js';
import type { TimeFormatter } from '../wire-record.js';
import { appendDeliveryLogs } from './delivery-log.js';
import type { HttpAnswer, HttpSender } from './http-sender.js';
import { CdrPushError } from './push-error.js';
import { buildPushRequest } from './request-body.js';
import { loadCdrPushSettings } from './settings-store.js';

/** The synthetic record a test sends. */
export function testRecord(nowMs: number, time: TimeFormatter): CdrWireRecord {
  const unix = Math.floor(nowMs / 1000);
  const at = time.format(unix);
  return {
    db_id: 0,
    call_id: `branchgate-test-${nowMs}`,
    caller_id: '"branchgate test" <0>',
    source: '0',
    destination_context: 'branchgate-test',
    destination: '0',
    initial_destination: '0',
    computed_destination: '',
    disposition: 'ANSWERED',
    timestamp: String(unix),
    date: at,
    start_time: at,
    answer_time: at,
    end_time: at,
    recording_url: '',
  };
}

/** Sends a test record with the saved settings (enabled or not) and reports the answer. */
export async function sendTestRecord(
  store: Store,
  sender: HttpSender,
  time: TimeFormatter,
  clock: Clock,
  destination = 1,
): Promise<HttpAnswer> {
  const settings = await loadCdrPushSettings(store, destination);
  if (settings.url === '') throw new CdrPushError('not_configured', 'url: set the receiver URL first');
  const nowMs = clock.now();
  const answer = await sender.send(
    buildPushRequest(settings, [testRecord(nowMs, time)], `cdr-test-${nowMs}`, nowMs),
  );
  await appendDeliveryLogs(
    store.db,
    [
      {
        atMs: nowMs,
        kind: 'test',
        firstDbId: null,
        lastDbId: null,
        records: 1,
        status: answer.status,
        latencyMs: answer.latencyMs,
        error: answer.error,
      },
    ],
    destination,
  );
  return answer;
}
