// A minimal MaxMind DB (mmdb) writer for tests: builds a real binary search tree (24-bit records),
// a data section of {country: {iso_code}} maps and the metadata map, per the MaxMind DB format
// spec 2.0, so the geo mmdb reader is tested against a real file rather than a mock.

/** One network and the country code it maps to. */
export interface MmdbNetwork {
  /** Address as bits, most significant first: 32 for IPv4 databases, 128 for IPv6 ones. */
  readonly bits: string;
  readonly iso: string;
  /** The record field holding the code (default `country`). */
  readonly field?: 'country' | 'registered_country';
}

interface TreeNode {
  children: [Child, Child];
  id: number;
}
type Child = TreeNode | { data: number } | null;

/** Options of writeMmdb. */
export interface MmdbOptions {
  readonly ipVersion: 4 | 6;
  readonly networks: readonly MmdbNetwork[];
  /** IPv6 only: bit paths (length 96) that alias the ::/96 IPv4 subtree, like ::ffff:0:0/96. */
  readonly ipv4Aliases?: readonly string[];
}

function control(type: number, size: number): number[] {
  const out: number[] = [];
  let sizeBits: number;
  const extra: number[] = [];
  if (size < 29) sizeBits = size;
  else if (size < 285) {
    sizeBits = 29;
    extra.push(size - 29);
  } else throw new Error('test writer: size too large');
  if (type <= 7) out.push((type << 5) | sizeBits);
  else out.push(sizeBits, type - 7);
  return [...out, ...extra];
}

function encodeString(s: string): number[] {
  const bytes = [...Buffer.from(s, 'utf8')];
  return [...control(2, bytes.length), ...bytes];
}

function encodeUint(type: 5 | 6 | 9, value: number): number[] {
  const bytes: number[] = [];
  let v = value;
  while (v > 0) {
    bytes.unshift(v % 256);
    v = Math.floor(v / 256);
  }
  return [...control(type, bytes.length), ...bytes];
}

type Value =
  | string
  | { uint16: number }
  | { uint32: number }
  | { uint64: number }
  | Value[]
  | { [k: string]: Value };

function encodeValue(v: Value): number[] {
  if (typeof v === 'string') return encodeString(v);
  if (Array.isArray(v)) return [...control(11, v.length), ...v.flatMap(encodeValue)];
  if ('uint16' in v && typeof v.uint16 === 'number') return encodeUint(5, v.uint16);
  if ('uint32' in v && typeof v.uint32 === 'number') return encodeUint(6, v.uint32);
  if ('uint64' in v && typeof v.uint64 === 'number') return encodeUint(9, v.uint64);
  const entries = Object.entries(v as { [k: string]: Value });
  return [
    ...control(7, entries.length),
    ...entries.flatMap(([k, val]) => [...encodeString(k), ...encodeValue(val)]),
  ];
}

/** Builds the bytes of an mmdb country database holding the given networks. */
export function writeMmdb(options: MmdbOptions): Buffer {
  const data: number[] = [];
  const dataOffset = new Map<string, number>();
  const root: TreeNode = { children: [null, null], id: -1 };
  for (const net of options.networks) {
    const field = net.field ?? 'country';
    let offset = dataOffset.get(`${field}:${net.iso}`);
    if (offset === undefined) {
      offset = data.length;
      dataOffset.set(`${field}:${net.iso}`, offset);
      data.push(...encodeValue({ [field]: { iso_code: net.iso } }));
    }
    let node = root;
    for (let i = 0; i < net.bits.length; i++) {
      const side = net.bits[i] === '1' ? 1 : 0;
      if (i === net.bits.length - 1) {
        node.children[side] = { data: offset };
        break;
      }
      let next = node.children[side];
      if (next === null || !('children' in next)) {
        next = { children: [null, null], id: -1 };
        node.children[side] = next;
      }
      node = next;
    }
  }
  // Number the nodes breadth-first.
  const nodes: TreeNode[] = [];
  const queue: TreeNode[] = [root];
  while (queue.length > 0) {
    const n = queue.shift() as TreeNode;
    n.id = nodes.length;
    nodes.push(n);
    for (const c of n.children) if (c && 'children' in c) queue.push(c);
  }
  const aliasTargets = new Map<TreeNode, [number, TreeNode]>();
  if (options.ipVersion === 6 && options.ipv4Aliases) {
    let v4root: Child = root;
    for (let i = 0; i < 96 && v4root && 'children' in v4root; i++) v4root = v4root.children[0];
    if (!v4root || !('children' in v4root)) throw new Error('test writer: no IPv4 subtree to alias');
    for (const path of options.ipv4Aliases) {
      // Create the path's nodes (all but the last bit) and point its last record at the IPv4 root.
      let node = root;
      for (let i = 0; i < path.length - 1; i++) {
        const side = path[i] === '1' ? 1 : 0;
        let next = node.children[side];
        if (next === null || !('children' in next)) {
          next = { children: [null, null], id: nodes.length };
          nodes.push(next);
          node.children[side] = next;
        }
        node = next;
      }
      aliasTargets.set(node, [path[path.length - 1] === '1' ? 1 : 0, v4root]);
    }
  }
  const nodeCount = nodes.length;
  const tree = Buffer.alloc(nodeCount * 6);
  const recordValue = (c: Child): number => {
    if (c === null) return nodeCount;
    if ('children' in c) return c.id;
    return nodeCount + 16 + c.data;
  };
  for (const n of nodes) {
    const alias = aliasTargets.get(n);
    for (const side of [0, 1] as const) {
      const value = alias && alias[0] === side ? alias[1].id : recordValue(n.children[side]);
      tree.writeUIntBE(value, n.id * 6 + side * 3, 3);
    }
  }
  const metadata = encodeValue({
    binary_format_major_version: { uint16: 2 },
    binary_format_minor_version: { uint16: 0 },
    build_epoch: { uint64: 1_700_000_000 },
    database_type: 'Test-Country',
    description: { en: 'branchgate test database' },
    ip_version: { uint16: options.ipVersion },
    languages: ['en'],
    node_count: { uint32: nodeCount },
    record_size: { uint16: 24 },
  });
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    Buffer.from(data),
    Buffer.from([0xab, 0xcd, 0xef, ...Buffer.from('MaxMind.com')]),
    Buffer.from(metadata),
  ]);
}

/** Bits of an IPv4 CIDR `a.b.c.d/p` (optionally placed under ::/96 for an IPv6 database). */
export function ipv4Bits(cidr: string, inIpv6 = false): string {
  const [addr = '', p = '32'] = cidr.split('/');
  const bits = addr
    .split('.')
    .map((o) => Number(o).toString(2).padStart(8, '0'))
    .join('');
  return (inIpv6 ? '0'.repeat(96) : '') + bits.slice(0, Number(p));
}

/** Bits of an IPv6 CIDR with a fully written address, e.g. `2001:0db8:0:0:0:0:0:0/32`. */
export function ipv6Bits(cidr: string): string {
  const [addr = '', p = '128'] = cidr.split('/');
  const bits = addr
    .split(':')
    .map((g) => Number.parseInt(g, 16).toString(2).padStart(16, '0'))
    .join('');
  return bits.slice(0, Number(p));
}
