// Finds where JSON text stops being valid JSON (RFC 8259), since Node's JSON.parse messages do not
// always carry a position: one linear scan with an explicit stack, so deep nesting cannot overflow.

// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold raw control characters
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const LITERAL = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SPACE = /[ \t\n\r]*/y;

/** The offset of the first character at which `text` is not valid JSON (text.length: it ends early; -1: valid). */
export function jsonErrorPosition(text: string): number {
  const closers: string[] = [];
  let i = 0;
  const skip = (re: RegExp): boolean => {
    re.lastIndex = i;
    if (!re.test(text)) return false;
    i = re.lastIndex;
    return true;
  };
  // States: a value is due; a key (or, just after '{', a '}') is due; a ',' or closer is due.
  let state: 'value' | 'key' | 'firstKey' | 'firstValue' | 'after' = 'value';
  for (;;) {
    skip(SPACE);
    if (i >= text.length) return closers.length === 0 && state === 'after' ? -1 : i;
    const c = text.charAt(i);
    if (state === 'after') {
      const closer = closers[closers.length - 1];
      if (closer === undefined) return i;
      if (c === ',') {
        i++;
        state = closer === '}' ? 'key' : 'value';
      } else if (c === closer) {
        i++;
        closers.pop();
      } else return i;
      continue;
    }
    if ((state === 'firstKey' && c === '}') || (state === 'firstValue' && c === ']')) {
      i++;
      closers.pop();
      state = 'after';
      continue;
    }
    if (state === 'key' || state === 'firstKey') {
      if (!skip(STRING)) return i;
      skip(SPACE);
      if (text.charAt(i) !== ':') return i;
      i++;
      state = 'value';
      continue;
    }
    if (c === '{' || c === '[') {
      closers.push(c === '{' ? '}' : ']');
      i++;
      state = c === '{' ? 'firstKey' : 'firstValue';
      continue;
    }
    if (!skip(c === '"' ? STRING : LITERAL)) return i;
    state = 'after';
  }
}
