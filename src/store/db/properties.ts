import type { Kysely, Selectable } from 'kysely';
import type { Database, PropertiesTable, PropertyValuesTable } from './schema.js';
import type { Extraction, PropertyRecord, PropertyValueRecord } from '../../model/records.js';

function toProperty(r: Selectable<PropertiesTable>): PropertyRecord {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    docsetId: r.docset_id,
    label: r.label,
    labelId: r.label_id,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toValue(r: Selectable<PropertyValuesTable>): PropertyValueRecord {
  return {
    propertyId: r.property_id,
    documentId: r.document_id,
    docsetId: r.docset_id,
    extractedValue: r.extracted_value,
    extraction: r.extraction ? (JSON.parse(r.extraction) as Extraction) : null,
    extractedAt: r.extracted_at === null ? null : Number(r.extracted_at),
    manualValue: r.manual_value,
    manualAt: r.manual_at === null ? null : Number(r.manual_at),
    manualEvidence: r.manual_evidence ? (JSON.parse(r.manual_evidence) as unknown) : null,
  };
}

/** Docset properties and the documents' values for them. */
export class PropertiesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(p: PropertyRecord): Promise<void> {
    await this.db
      .insertInto('properties')
      .values({ id: p.id, workspace_id: p.workspaceId, docset_id: p.docsetId, label: p.label, label_id: p.labelId, created_at: p.createdAt, updated_at: p.updatedAt })
      .execute();
  }

  async get(workspaceId: string, docsetId: string, id: string): Promise<PropertyRecord | undefined> {
    const row = await this.db
      .selectFrom('properties')
      .selectAll()
      .where('id', '=', id)
      .where('docset_id', '=', docsetId)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row && toProperty(row);
  }

  async list(workspaceId: string, docsetId: string): Promise<PropertyRecord[]> {
    const rows = await this.db.selectFrom('properties').selectAll().where('workspace_id', '=', workspaceId).where('docset_id', '=', docsetId).orderBy('id').execute();
    return rows.map(toProperty);
  }

  async byLabelId(docsetId: string, labelId: string): Promise<PropertyRecord | undefined> {
    const row = await this.db.selectFrom('properties').selectAll().where('docset_id', '=', docsetId).where('label_id', '=', labelId).executeTakeFirst();
    return row && toProperty(row);
  }

  async relabel(id: string, label: string, labelId: string, now: number): Promise<void> {
    await this.db.updateTable('properties').set({ label, label_id: labelId, updated_at: now }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('property_values').where('property_id', '=', id).execute();
    await this.db.deleteFrom('properties').where('id', '=', id).execute();
  }

  async deleteForDocset(docsetId: string): Promise<void> {
    await this.db.deleteFrom('property_values').where('docset_id', '=', docsetId).execute();
    await this.db.deleteFrom('properties').where('docset_id', '=', docsetId).execute();
  }

  async value(propertyId: string, documentId: string): Promise<PropertyValueRecord | undefined> {
    const row = await this.db.selectFrom('property_values').selectAll().where('property_id', '=', propertyId).where('document_id', '=', documentId).executeTakeFirst();
    return row && toValue(row);
  }

  /** The values of one document for the properties of one docset. */
  async valuesOf(docsetId: string, documentId: string): Promise<PropertyValueRecord[]> {
    const rows = await this.db.selectFrom('property_values').selectAll().where('docset_id', '=', docsetId).where('document_id', '=', documentId).execute();
    return rows.map(toValue);
  }

  /** Every value of the docset's properties (what the docset knows, for learning). */
  async valuesOfDocset(docsetId: string): Promise<PropertyValueRecord[]> {
    const rows = await this.db.selectFrom('property_values').selectAll().where('docset_id', '=', docsetId).execute();
    return rows.map(toValue);
  }

  async setManual(key: { workspaceId: string; docsetId: string; propertyId: string; documentId: string }, value: string | null, evidence: unknown, now: number): Promise<void> {
    const set = { manual_value: value, manual_at: value === null ? null : now, manual_evidence: value === null || evidence == null ? null : JSON.stringify(evidence) };
    await this.db
      .insertInto('property_values')
      .values({ property_id: key.propertyId, document_id: key.documentId, workspace_id: key.workspaceId, docset_id: key.docsetId, ...set })
      .onConflict((oc) => oc.columns(['property_id', 'document_id']).doUpdateSet(set))
      .execute();
  }

  /** Records what extraction found; a manual value stays as it is. */
  async setExtracted(
    key: { workspaceId: string; docsetId: string; propertyId: string; documentId: string },
    value: string | null,
    extraction: Extraction | null,
    now: number,
  ): Promise<void> {
    const json = extraction ? JSON.stringify(extraction) : null;
    await this.db
      .insertInto('property_values')
      .values({ property_id: key.propertyId, document_id: key.documentId, workspace_id: key.workspaceId, docset_id: key.docsetId, extracted_value: value, extraction: json, extracted_at: now })
      .onConflict((oc) => oc.columns(['property_id', 'document_id']).doUpdateSet({ extracted_value: value, extraction: json, extracted_at: now }))
      .execute();
  }

  /** A document left the docset (or was deleted): its values for the docset's properties go. */
  async deleteValuesOf(documentId: string, docsetId?: string): Promise<void> {
    let q = this.db.deleteFrom('property_values').where('document_id', '=', documentId);
    if (docsetId) q = q.where('docset_id', '=', docsetId);
    await q.execute();
  }
}
