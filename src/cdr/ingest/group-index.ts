// The linkedid groups of a file, gathered while it is read and resolved once it has been read in
// full, because the records of one call are written when each channel hangs up, not in call order.
import { type GroupMember, resolveInitialDestination } from './destination.js';

/** Which group a record belongs to: its linkedid, else (no linkedid column) its uniqueid, else none. */
export function groupKeyOf(row: { linkedid: string; uniqueid: string }): string {
  return row.linkedid || row.uniqueid;
}

/** Collects group members, then answers each group's initial destination. */
export class GroupIndex {
  // One member as itself, more as an array: most groups have one record, and 1M files mean 1M groups.
  private readonly members = new Map<string, GroupMember | GroupMember[]>();
  private resolved = new Map<string, string>();

  /** Records one member of group `key` ('' for a record in no group). */
  add(key: string, member: GroupMember): void {
    if (key === '') return;
    const found = this.members.get(key);
    if (found === undefined) this.members.set(key, member);
    else if (Array.isArray(found)) found.push(member);
    else this.members.set(key, [found, member]);
  }

  /** Resolves every group of more than one record; call once after the last add(). Frees the members. */
  resolve(): void {
    const out = new Map<string, string>();
    for (const [key, found] of this.members) {
      if (Array.isArray(found)) out.set(key, resolveInitialDestination(found));
    }
    this.members.clear();
    this.resolved = out;
  }

  /** The number first dialled in group `key`; for a record alone in its group, its dst (else target). */
  initialDestination(key: string, dst: string, target: string): string {
    return this.resolved.get(key) ?? (dst || target);
  }
}
