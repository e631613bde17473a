/**
 * A unique or foreign-key violation the database reported, as the request's fault: two requests
 * raced (two creates of one docset name; an upload into a docset deleted meanwhile) and the checks
 * each made before writing could not see the other. Read from PostgreSQL's SQLSTATE (23505, 23503,
 * with the constraint's name) and SQLite's extended result codes; the one place that knows them.
 * The store knows no rules (it imports no domain module): it says what the violation means as a
 * ConstraintViolationError, whose `kind` is the DomainError kind the transport answers it with
 * (src/http/problems.ts).
 */
export interface ConstraintViolation {
  /**
   * `unique`: a value taken meanwhile; `missing-reference`: a row written refers to one deleted
   * meanwhile; `still-referenced`: a row deleted is referred to by one written meanwhile (PostgreSQL
   * tells these two apart; SQLite, whose writers take turns and so never race, does not).
   */
  kind: 'unique' | 'missing-reference' | 'still-referenced' | 'foreign-key';
  /** PostgreSQL: the unique index, or the table referred to or referring; SQLite: the `table.column, …` of its message. */
  constraint: string;
}

export function constraintViolation(err: unknown): ConstraintViolation | null {
  const e = err as { code?: unknown; rawCode?: unknown; constraint?: unknown; table?: unknown; detail?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return null;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (code === '23505') return { kind: 'unique', constraint: String(e.constraint ?? '') };
  if (code === '23503') {
    // The detail names the other table: Key (docset_id)=(…) is not present in table "docsets", or
    // Key (id)=(…) is still referenced from table "documents".
    const detail = typeof e.detail === 'string' ? e.detail : '';
    const missing = /is not present in table "([^"]+)"/.exec(detail);
    if (missing) return { kind: 'missing-reference', constraint: missing[1]! };
    const referenced = /is still referenced from table "([^"]+)"/.exec(detail);
    if (referenced) return { kind: 'still-referenced', constraint: referenced[1]! };
    return { kind: 'foreign-key', constraint: String(e.constraint ?? '') };
  }
  // SQLite: SQLITE_CONSTRAINT_UNIQUE (2067), _PRIMARYKEY (1555), _FOREIGNKEY (787).
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e.rawCode === 2067 || e.rawCode === 1555) {
    return { kind: 'unique', constraint: /constraint failed: (.*)$/.exec(message)?.[1] ?? '' };
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || e.rawCode === 787) return { kind: 'foreign-key', constraint: '' };
  return null;
}

/** A transaction refused for a race with another: `kind` says how to answer it (409 or 404). */
export class ConstraintViolationError extends Error {
  constructor(
    readonly kind: 'conflict' | 'not-found',
    message: string,
    /** `retry-after` when a repeat will succeed. */
    readonly headers: Record<string, string>,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

const RACED = 'by another request at the same moment';
const refused = (kind: 'conflict' | 'not-found', message: string, cause: unknown, headers: Record<string, string> = {}) => new ConstraintViolationError(kind, message, headers, { cause });

/**
 * What a violation means to the client: 409 for a name taken, 404 for something deleted meanwhile,
 * 409 with `retry-after` for a delete that lost a race to a new reference.
 */
export function constraintProblem(v: ConstraintViolation, cause: unknown = undefined): ConstraintViolationError {
  const c = v.constraint;
  if (v.kind === 'unique') {
    if (c === 'docsets_workspace_name' || c === 'docsets.workspace_id, docsets.name') return refused('conflict', `A docset with this name already exists in this workspace (created ${RACED}).`, cause);
    if (c === 'properties_docset_label_id' || c === 'properties.docset_id, properties.label_id') {
      return refused('conflict', `The docset already has a property with this label (created ${RACED}).`, cause);
    }
    if (c === 'workspaces_name_key' || c === 'workspaces.name') return refused('conflict', `A workspace with this name already exists (created ${RACED}).`, cause);
    return refused('conflict', `The same change was made ${RACED}; look at the current state before trying again.`, cause);
  }
  if (v.kind === 'missing-reference') {
    if (c === 'docsets') return refused('not-found', `The docset was deleted ${RACED}.`, cause);
    if (c === 'documents') return refused('not-found', `The document was deleted ${RACED}.`, cause);
    if (c === 'projects') return refused('not-found', `The project was deleted ${RACED}.`, cause);
    return refused('not-found', `Something this request refers to was deleted ${RACED}.`, cause);
  }
  // What is being deleted gained a reference (a document uploaded into a docset being deleted): a
  // repeat sees it and succeeds, so the 409 says to retry.
  const what = v.kind === 'still-referenced' ? ` (${c} were added to it ${RACED})` : ` ${RACED}`;
  return refused('conflict', `The change conflicts with one made${what}; try again.`, cause, { 'retry-after': '1' });
}

/**
 * The ConstraintViolationError a database error stands for, or the error itself. A deadlock or
 * serialization failure (PostgreSQL's 40P01, 40001: the transaction was rolled back for another
 * one) is a 409 to retry too: nothing of it was kept.
 */
export function asConstraintError(err: unknown): unknown {
  const v = constraintViolation(err);
  if (v) return constraintProblem(v, err);
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '40P01' || code === '40001') {
    return refused('conflict', 'The change collided with another request made at the same moment and was not made; try again.', err, { 'retry-after': '1' });
  }
  return err;
}
