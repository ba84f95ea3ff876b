// initial_destination and computed_destination (docs/cdr-mapping.md has the scenarios). Pure:
// a record's dial target comes from dstchannel (`Local/2011@phones-0000001c;1`, `PJSIP/2011-00000012`)
// or the Dial() argument; a call's first number comes from the first record of its group.

const NUMBER = /^\+?[0-9*#]+$/;
// Tech/resource-<hex>[;1|;2]: what Asterisk names a channel instance.
const CHANNEL = /^([^/]+)\/(.+)-[0-9a-f]+(?:;\d)?$/i;

function numberOf(resource: string): string {
  const at = resource.indexOf('@');
  const n = at === -1 ? resource : resource.slice(0, at);
  return NUMBER.test(n) ? n : '';
}

/** The number a record's leg rang: from dstchannel, else from a Dial() lastdata; '' when unknown. */
export function dialTarget(dstchannel: string, lastapp: string, lastdata: string): string {
  const m = CHANNEL.exec(dstchannel);
  if (m && !/^dahdi$/i.test(m[1] ?? '')) {
    const n = numberOf(m[2] ?? '');
    if (n) return n;
  }
  if (lastapp.toLowerCase() !== 'dial') return '';
  const device = (lastdata.split(',')[0] ?? '').split('&')[0] ?? '';
  const slash = device.indexOf('/');
  if (slash < 0) return '';
  const segments = device.slice(slash + 1).split('/');
  // DAHDI/g0/0301234: the first segment names a span or group, not a number.
  if (/^dahdi$/i.test(device.slice(0, slash))) segments.shift();
  for (const segment of segments) {
    const n = numberOf(segment);
    if (n) return n;
  }
  return '';
}

/**
 * Whether two numbers name the same party: equal, or one is the other with an outside-line prefix
 * added or stripped by the dialplan (00493012345678 dialled as 0493012345678), which needs the
 * shorter to have at least 6 digits so that short extensions never match by suffix.
 */
export function sameNumber(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 6 && long.endsWith(short);
}

/** What the group resolution needs to know about one record. */
export interface GroupMember {
  /** Asterisk's CDR sequence, or null when the layout has none. */
  sequence: number | null;
  start: number;
  /** Position in the file, the last tie-break. */
  index: number;
  dst: string;
  target: string;
  channel: string;
}

/** Whether a comes before b in a call: lower sequence, else earlier start, else earlier in the file. */
export function comesBefore(a: GroupMember, b: GroupMember): boolean {
  if (a.sequence !== null && b.sequence !== null && a.sequence !== b.sequence) return a.sequence < b.sequence;
  if (a.start !== b.start) return a.start < b.start;
  return a.index < b.index;
}

/**
 * The number first dialled for a call: the dst of its first record. A blind transfer or a redirect
 * rewrites dst on every record of the moved channel to the new extension; that shows as the first
 * record ringing X under dst Y while a later record on the same channel rings Y, and then X is the
 * number first dialled.
 */
export function resolveInitialDestination(members: readonly GroupMember[]): string {
  let first = members[0];
  if (!first) return '';
  for (const m of members) if (comesBefore(m, first)) first = m;
  const { dst, target, channel } = first;
  if (dst === '') return target;
  if (target !== '' && !sameNumber(target, dst)) {
    const rewritten = members.some(
      (m) => m !== first && m.channel === channel && m.target !== '' && sameNumber(m.target, dst),
    );
    if (rewritten) return target;
  }
  return dst;
}

/** Where this record's leg went when that is not the number first dialled, else ''. */
export function computedDestination(target: string, dst: string, initial: string): string {
  const reached = target || dst;
  return reached === '' || sameNumber(reached, initial) ? '' : reached;
}
