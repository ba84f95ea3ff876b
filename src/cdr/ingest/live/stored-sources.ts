// Live CDR sources added and removed at run time (REST, CLI), kept in the store so the next start
// runs them too. A source is given as its serve flag's value (`ami://...`, a Master.csv path with
// its options, a mysql:// or postgres:// URL with table=...), checked by the same parser, and
// started at once; sources given by flags are listed but belong to the command line.
import { AppError } from '../../../shared/errors.js';
import type { Store } from '../../../store/index.js';
import { parseAmiSourceSpec } from './ami/ami-source-spec.js';
import { parseCsvSourceSpec } from './csv-source-spec.js';
import type { IngestManager } from './ingest-manager.js';
import type { IngestSource, IngestSourceKind } from './ingest-source.js';
import { parseSqlSourceSpec } from './sql-source-spec.js';

/** The kinds that can be added at run time. */
export const ADDABLE_KINDS = ['ami', 'csv', 'sql'] as const;
/** One of them. */
export type AddableKind = (typeof ADDABLE_KINDS)[number];

/** A checked source spec, ready to build. */
export type CheckedSpec =
  | { kind: 'ami'; spec: ReturnType<typeof parseAmiSourceSpec> }
  | { kind: 'csv'; spec: ReturnType<typeof parseCsvSourceSpec> }
  | { kind: 'sql'; spec: ReturnType<typeof parseSqlSourceSpec> };

/** A source as the API lists it (never its secret). */
export interface SourceEntry {
  id: string;
  kind: IngestSourceKind;
  target: string;
  /** `flag`: given on serve's command line; `stored`: added at run time. */
  origin: 'flag' | 'stored';
}

/** Checks a spec as its serve flag would; throws bad_config naming what is wrong. */
export function checkSourceSpec(kind: string, text: string): CheckedSpec {
  if (kind === 'ami') return { kind, spec: parseAmiSourceSpec(text) };
  if (kind === 'csv') return { kind, spec: parseCsvSourceSpec(text) };
  if (kind === 'sql') return { kind, spec: parseSqlSourceSpec(text, 'cdr') };
  throw new AppError('bad_config', `kind "${kind}": expected one of ${ADDABLE_KINDS.join(', ')}`);
}

const targetOf = (c: CheckedSpec): string => (c.kind === 'csv' ? c.spec.path : c.spec.target);

/** The run-time sources of one server. */
export class StoredIngestSources {
  private readonly flags = new Map<string, SourceEntry>();

  constructor(
    private readonly store: Store,
    private readonly manager: IngestManager,
    private readonly build: (checked: CheckedSpec) => IngestSource,
    fromFlags: readonly CheckedSpec[],
  ) {
    for (const c of fromFlags)
      this.flags.set(c.spec.id, { id: c.spec.id, kind: c.kind, target: targetOf(c), origin: 'flag' });
  }

  /** Starts the stored sources (a stored one the flags also give runs once, as the flag's). */
  async load(): Promise<void> {
    const rows = await this.store.db
      .selectFrom('ingest_sources')
      .selectAll()
      .orderBy('created_at_ms')
      .execute();
    const sources: IngestSource[] = [];
    for (const row of rows) {
      if (this.flags.has(row.id)) continue;
      sources.push(this.build(checkSourceSpec(row.kind, row.spec)));
    }
    this.manager.add(sources);
  }

  /** Every source, flag ones first. */
  async list(): Promise<SourceEntry[]> {
    const rows = await this.store.db
      .selectFrom('ingest_sources')
      .selectAll()
      .orderBy('created_at_ms')
      .execute();
    const stored = rows
      .filter((r) => !this.flags.has(r.id))
      .map((r): SourceEntry => {
        const c = checkSourceSpec(r.kind, r.spec);
        return { id: r.id, kind: c.kind, target: targetOf(c), origin: 'stored' };
      });
    return [...this.flags.values(), ...stored];
  }

  /** Checks, stores and starts a source; source_exists when one with its id runs already. */
  async add(kind: string, text: string, nowMs: number): Promise<SourceEntry> {
    const checked = checkSourceSpec(kind, text);
    const id = checked.spec.id;
    if (this.flags.has(id) || this.manager.has(id))
      throw new AppError('source_exists', `${id} is already an ingest source`);
    const inserted = await this.store.db
      .insertInto('ingest_sources')
      .values({ id, kind: checked.kind, spec: text, created_at_ms: nowMs })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
      throw new AppError('source_exists', `${id} is already an ingest source`);
    this.manager.add([this.build(checked)]);
    return { id, kind: checked.kind, target: targetOf(checked), origin: 'stored' };
  }

  /** Stops and forgets a stored source; flag sources cannot be removed here. */
  async remove(id: string): Promise<void> {
    if (this.flags.has(id))
      throw new AppError('source_from_flag', `${id} is given by a serve flag; remove the flag and restart`);
    const res = await this.store.db.deleteFrom('ingest_sources').where('id', '=', id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw new AppError('no_such_source', `no ingest source ${id}`);
    await this.manager.remove(id);
  }
}
