// Decides whether a "+NAME: ..." line that arrives while a command is on the wire is part of its
// answer. Boot messages such as "+CPIN: READY" or "+CFUN: 1" are noise on their own but answers
// to AT+CPIN? / AT+CFUN?, and an extended command's answer lines carry its own name.

/** 'answer': the line is named like the command; 'unsolicited': named like another one; 'unknown': no name to go by. */
export type LineOwnership = 'answer' | 'unsolicited' | 'unknown';

/** Classifies a line received while `commandText` (e.g. "AT+CSQ") is on the wire. */
export function lineOwnership(line: string, commandText: string): LineOwnership {
  const command = /^AT([+^][A-Za-z0-9]+)/i.exec(commandText)?.[1];
  const named = /^([+^][A-Za-z0-9]+):/.exec(line)?.[1];
  if (command === undefined || named === undefined) return 'unknown';
  return command.toUpperCase() === named.toUpperCase() ? 'answer' : 'unsolicited';
}
