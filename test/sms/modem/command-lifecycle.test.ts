import { describe, expect, it } from 'vitest';
import { advanceCommand, startCommand } from '../../../src/sms/modem/command-lifecycle.js';

const ok = { kind: 'final', result: { status: 'ok' }, text: 'OK' } as const;

describe('command lifecycle', () => {
  it('writes the command, collects information lines and finishes on OK', () => {
    const cmd = { text: 'AT+CSQ', timeoutMs: 100 };
    const start = startCommand(cmd);
    expect(start.effects).toEqual([{ type: 'write', data: 'AT+CSQ\r', armMs: 100 }]);
    if (start.state === undefined) throw new Error('no state');
    const echo = advanceCommand(cmd, start.state, { type: 'frame', frame: { kind: 'line', text: 'AT+CSQ' } });
    if (echo.state === undefined) throw new Error('no state');
    const line = advanceCommand(cmd, echo.state, {
      type: 'frame',
      frame: { kind: 'line', text: '+CSQ: 21,99' },
    });
    if (line.state === undefined) throw new Error('no state');
    const done = advanceCommand(cmd, line.state, { type: 'frame', frame: ok });
    expect(done).toEqual({
      state: undefined,
      effects: [{ type: 'done', response: { lines: ['+CSQ: 21,99'] } }],
    });
  });

  it('sends the payload and Ctrl-Z on the prompt, re-arming with the send timeout', () => {
    const cmd = { text: 'AT+CMGS=20', payload: '0011AB', timeoutMs: 60_000, promptTimeoutMs: 5000 };
    const start = startCommand(cmd);
    expect(start.effects).toEqual([{ type: 'write', data: 'AT+CMGS=20\r', armMs: 5000 }]);
    if (start.state === undefined) throw new Error('no state');
    const prompted = advanceCommand(cmd, start.state, { type: 'frame', frame: { kind: 'prompt' } });
    expect(prompted.effects).toEqual([{ type: 'write', data: '0011AB\x1a', armMs: 60_000 }]);
    expect(prompted.state?.phase).toBe('awaiting_final');
  });

  it('cancels the prompt with ESC when the modem never answers after it', () => {
    const cmd = { text: 'AT+CMGS=20', payload: '00', timeoutMs: 60_000, promptTimeoutMs: 5000 };
    const start = startCommand(cmd);
    if (start.state === undefined) throw new Error('no state');
    expect(advanceCommand(cmd, start.state, { type: 'timeout' }).effects).toEqual([
      { type: 'failed', failure: { reason: 'timeout', phase: 'awaiting_prompt' }, write: '\x1b' },
    ]);
  });

  it('fails with the modem error number on +CMS ERROR', () => {
    const cmd = { text: 'AT+CMGD=1', timeoutMs: 100 };
    const start = startCommand(cmd);
    if (start.state === undefined) throw new Error('no state');
    const result = { status: 'cms_error', code: 321, text: '321' } as const;
    expect(
      advanceCommand(cmd, start.state, {
        type: 'frame',
        frame: { kind: 'final', result, text: '+CMS ERROR: 321' },
      }),
    ).toEqual({ state: undefined, effects: [{ type: 'failed', failure: { reason: 'final', result } }] });
  });
});
