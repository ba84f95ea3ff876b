// The recent calls a live source has seen, so that a record's initial_destination is resolved from
// the records of its call that came before it, as the import resolves it from the whole file.
// Records of one call end within seconds of each other, so a bounded memory of recent groups is
// enough; what it cannot know is a later record that would change the answer (docs/cdr-ingest.md).
import { type GroupMember, resolveInitialDestination } from '../destination.js';
import { groupKeyOf } from '../group-index.js';
import type { SourceRow } from '../source-row.js';

/** Groups remembered at most (oldest forgotten first). */
const MAX_GROUPS = 20_000;

/** Per-source memory of recent call groups (linkedid, else uniqueid). */
export class GroupMemory {
  private readonly groups = new Map<string, GroupMember[]>();
  private index = 0;

  /** Adds the row to its group and answers the group's initial destination so far. */
  initialDestination(row: SourceRow, target: string): string {
    const key = groupKeyOf(row);
    const member: GroupMember = {
      sequence: row.sequence,
      start: row.start,
      index: this.index++,
      dst: row.dst,
      target,
      channel: row.channel,
    };
    if (key === '') return row.dst || target;
    let members = this.groups.get(key);
    if (members) {
      // Most recently used last, so eviction drops the oldest call.
      this.groups.delete(key);
    } else {
      members = [];
      if (this.groups.size >= MAX_GROUPS) {
        const oldest = this.groups.keys().next().value;
        if (oldest !== undefined) this.groups.delete(oldest);
      }
    }
    members.push(member);
    this.groups.set(key, members);
    return members.length > 1 ? resolveInitialDestination(members) : row.dst || target;
  }
}
