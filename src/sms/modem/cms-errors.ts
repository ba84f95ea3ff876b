// Meanings of the +CMS ERROR (3GPP TS 27.005 3.2.5) and +CME ERROR (27.007 9.2) numbers the
// engine is likely to meet, for error messages a person can act on.

const CMS: Readonly<Record<number, string>> = {
  300: 'ME failure',
  301: 'SMS service of ME reserved',
  302: 'operation not allowed',
  303: 'operation not supported',
  304: 'invalid PDU mode parameter',
  305: 'invalid text mode parameter',
  310: 'SIM not inserted',
  311: 'SIM PIN required',
  313: 'SIM failure',
  314: 'SIM busy',
  320: 'memory failure',
  321: 'invalid memory index',
  322: 'memory full',
  330: 'SMSC address unknown',
  331: 'no network service',
  332: 'network timeout',
  500: 'unknown error',
};

const CME: Readonly<Record<number, string>> = {
  3: 'operation not allowed',
  4: 'operation not supported',
  10: 'SIM not inserted',
  11: 'SIM PIN required',
  12: 'SIM PUK required',
  13: 'SIM failure',
  14: 'SIM busy',
  15: 'SIM wrong',
  20: 'memory full',
  21: 'invalid index',
  30: 'no network service',
  100: 'unknown',
};

/** "+CMS ERROR: 322 (memory full)" style text for an error number. */
export function describeModemCode(kind: 'cms' | 'cme', code: number | undefined, text: string): string {
  const table = kind === 'cms' ? CMS : CME;
  const label = kind === 'cms' ? '+CMS ERROR' : '+CME ERROR';
  if (code === undefined) return `${label}: ${text}`;
  const meaning = table[code];
  return meaning === undefined ? `${label}: ${code}` : `${label}: ${code} (${meaning})`;
}
