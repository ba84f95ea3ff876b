// A command's failure (timeout or an error result) as a ModemError whose message a person can act
// on: the command, what was awaited or answered, and the meaning of a +CMS/+CME number.
import { describeModemCode } from './cms-errors.js';
import type { AtCommand, AtFailure } from './command-lifecycle.js';
import { ModemError } from './modem-error.js';

/** The ModemError for a failed command: what it was waiting for, or what the modem answered. */
export function failureToError(command: AtCommand, failure: AtFailure): ModemError {
  if (failure.reason === 'timeout') {
    const ms =
      failure.phase === 'awaiting_prompt'
        ? (command.promptTimeoutMs ?? command.timeoutMs)
        : command.timeoutMs;
    const what = failure.phase === 'awaiting_prompt' ? 'the "> " prompt' : 'a final result';
    return new ModemError('timeout', `no answer: waited ${ms} ms for ${what}`, { command: command.text });
  }
  const result = failure.result;
  switch (result.status) {
    case 'error':
      return new ModemError('error', `modem answered ${result.text}`, { command: command.text });
    case 'cms_error':
      return new ModemError(
        'cms_error',
        `modem answered ${describeModemCode('cms', result.code, result.text)}`,
        {
          command: command.text,
          ...(result.code === undefined ? {} : { modemCode: result.code }),
        },
      );
    case 'cme_error':
      return new ModemError(
        'cme_error',
        `modem answered ${describeModemCode('cme', result.code, result.text)}`,
        {
          command: command.text,
          ...(result.code === undefined ? {} : { modemCode: result.code }),
        },
      );
  }
}
