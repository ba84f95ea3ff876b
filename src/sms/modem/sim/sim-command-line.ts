// Splits what a host typed after "AT" into commands, as a modem does: basic commands (E0, V1, Z,
// &F, I) may be chained without separators; extended ones (+CMGS=...) are separated by ';'.

/** One parsed command of an AT command line. */
export interface SimCommand {
  /** Upper-case name: 'E', '&F', 'I', '+CMGS', '^SYSCFG'; '' for a bare "AT". */
  name: string;
  /** set: NAME=args; read: NAME?; test: NAME=?; exec: NAME or basic NAME<number>. */
  op: 'set' | 'read' | 'test' | 'exec';
  /** Arguments split on commas outside quotes, quotes removed; the number of a basic command. */
  args: string[];
  /** The command as typed, for logs. */
  raw: string;
}

/** Parses an AT command line (including the leading "AT"); undefined when it does not start with AT. */
export function parseCommandLine(line: string): SimCommand[] | undefined {
  const trimmed = line.trim();
  if (!/^AT/i.test(trimmed)) return undefined;
  let rest = trimmed.slice(2);
  if (rest === '') return [{ name: '', op: 'exec', args: [], raw: trimmed }];
  const commands: SimCommand[] = [];
  while (rest.length > 0) {
    if (rest.startsWith(';')) {
      rest = rest.slice(1).trimStart();
      if (/^AT/i.test(rest)) rest = rest.slice(2);
      continue;
    }
    if (/^[+^$%*#]/.test(rest)) {
      const end = indexOutsideQuotes(rest, ';');
      const text = end < 0 ? rest : rest.slice(0, end);
      rest = end < 0 ? '' : rest.slice(end);
      commands.push(parseExtended(text));
      continue;
    }
    const basic = /^(&?[A-Za-z])(\?|=\?|=?\d*)/.exec(rest);
    const sreg = /^(S\d+)(\?|=\d*)/i.exec(rest);
    const m = sreg ?? basic;
    if (m?.[1] === undefined) {
      commands.push({ name: rest.toUpperCase(), op: 'exec', args: [], raw: rest });
      break;
    }
    const suffix = m[2] ?? '';
    const op = suffix === '?' ? 'read' : suffix === '=?' ? 'test' : 'exec';
    const number = suffix.replace(/^=/, '');
    commands.push({
      name: m[1].toUpperCase(),
      op: op === 'exec' && suffix.startsWith('=') ? 'set' : op,
      args: op === 'exec' && number !== '' ? [number] : [],
      raw: m[0],
    });
    rest = rest.slice(m[0].length);
  }
  return commands;
}

function parseExtended(text: string): SimCommand {
  const m = /^([+^$%*#][A-Za-z0-9_&]+)(=\?|\?|=)?(.*)$/s.exec(text);
  const name = (m?.[1] ?? text).toUpperCase();
  const suffix = m?.[2];
  if (suffix === '=?') return { name, op: 'test', args: [], raw: text };
  if (suffix === '?') return { name, op: 'read', args: [], raw: text };
  if (suffix === '=') return { name, op: 'set', args: splitArgs(m?.[3] ?? ''), raw: text };
  return { name, op: 'exec', args: [], raw: text };
}

function splitArgs(text: string): string[] {
  const args: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      args.push(current.trim());
      current = '';
    } else current += ch;
  }
  args.push(current.trim());
  return args;
}

function indexOutsideQuotes(text: string, needle: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === needle && !quoted) return i;
  }
  return -1;
}
