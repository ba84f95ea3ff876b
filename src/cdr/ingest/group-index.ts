// The linkedid groups of a file, gathered while it is read and resolved once it has been read in
// full, because the records of one call are written when each channel hangs up, not in call order.
import { type GroupMember, resolveInitialDestination } from './destination.js';

/** Which group a record belongs to: its linkedid, else (no linkedid column) its uniqueid, else none. */
export function groupKeyOf(row: { linkedid: string; uniqueid: string }): string {
  return row.linkedid || row.uniqueid;
}

/** Collects group members, then answers each group's initial destination. */
export class GroupIndex {
  private readonly members = new Map<string, GroupMember[]>();
  private resolved: Map<string, string> | null = null;

  /** Records one member of group `key` ('' for a record in no group). */
  add(key: string, member: GroupMember): void {
    if (key === '') return;
    const list = this.members.get(key);
    if (list) list.push(member);
    else this.members.set(key, [member]);
  }

  /** Resolves every group; call once after the last add(). Frees the members. */
  resolve(): void {
    const out = new Map<string, string>();
    for (const [key, list] of this.members) out.set(key, resolveInitialDestination(list));
    this.members.clear();
    this.resolved = out;
  }

  /** The number first dialled in group `key`; for a record in no group, its own dst (else target). */
  initialDestination(key: string, dst: string, target: string): string {
    const found = key === '' ? undefined : this.resolved?.get(key);
    return found ?? (dst || target);
  }
}
