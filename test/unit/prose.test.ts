/**
 * Values from prose: the label's kind, word forms, parties and their roles, and extraction from
 * running text, on sentences written for these tests (not rows of the CSL data).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeDocument } from '../../src/ingest/pipeline.js';
import { readDocument } from '../../src/ingest/readers/index.js';
import { evidenceOfManualValue, extractProperties } from '../../src/ingest/stages/properties.js';
import type { DocsetKnowledge, PropertyDef } from '../../src/document/properties.js';
import { labelKind } from '../../src/ingest/stages/properties/label-kind.js';
import { findParties } from '../../src/ingest/stages/properties/parties.js';
import { relatedWords } from '../../src/ingest/stages/properties/word-forms.js';
import type { StructureModel } from '../../src/document/structure.js';

async function structureOf(text: string): Promise<StructureModel> {
  const model = await readDocument(Buffer.from(text, 'utf8'), 'txt');
  return (await analyzeDocument(model, { ocrBudgetMs: 0 })).structure;
}

const def = (label: string, id = 'p'): PropertyDef => ({ id, label, labelId: label.replace(/[^A-Za-z0-9]/g, '') });
const noKnowledge = (): DocsetKnowledge => ({ byProperty: new Map() });

async function valueOf(text: string, label: string, knowledge = noKnowledge()) {
  const [r] = extractProperties(await structureOf(text), [def(label)], knowledge);
  return r!;
}

describe('label kinds', () => {
  test('the head word names the kind; the other words say which one', () => {
    assert.deepEqual(labelKind('Effective Date'), { kind: 'date', others: ['duration'], qualifiers: ['effective'], role: [], head: 'date' });
    assert.equal(labelKind('Cure Period').kind, 'duration');
    assert.deepEqual(labelKind('Termination Notice Period').qualifiers, ['termination', 'notice']);
    assert.equal(labelKind('Annual Salary').kind, 'money');
    assert.equal(labelKind('Interest Rate').kind, 'percent');
    assert.equal(labelKind('Wire Cutoff Time').kind, 'time');
    assert.equal(labelKind('Plan Name').kind, 'plan');
    assert.equal(labelKind('Job Title').kind, 'title');
  });

  test('a role noun, or a name, asks for a party with that role', () => {
    assert.deepEqual(labelKind('Administrative Agent Name').role, ['administrative', 'agent']);
    assert.deepEqual(labelKind('Tenant').role, ['tenant']);
    // An agent noun no list names: "-or", "-ee", "-er".
    assert.equal(labelKind('Indemnitor').kind, 'party');
    assert.equal(labelKind('Escrow Holder').kind, 'party');
    // Words that only end like agent nouns do not.
    assert.notEqual(labelKind('Flight Conducted Under').kind, 'party');
    assert.notEqual(labelKind('Purchase Order').kind, 'party');
  });

  test('kinds a value may also take: a time limit is a duration, a deadline may be a time of day', () => {
    assert.ok(labelKind('Restoration Time Limit').others.includes('duration'));
    assert.ok(labelKind('Inspection Deadline').others.includes('time'));
    assert.ok(labelKind('Commitment Increase').others.includes('money'), 'no kind word: every point value');
  });
});

describe('word forms', () => {
  test('derivations and near-synonyms meet; opposite parties do not', () => {
    for (const [a, b] of [
      ['terminate', 'termination'],
      ['notify', 'notice'],
      ['revoke', 'revocation'],
      ['commencing', 'commencement'],
      ['matures', 'maturity'],
    ]) {
      assert.ok(relatedWords(a!, b!) >= 0.9, `${a} ~ ${b}`);
    }
    assert.ok(relatedWords('lessee', 'tenant') >= 0.8);
    assert.ok(relatedWords('paid', 'payment') >= 0.8);
    assert.equal(relatedWords('employer', 'employee'), 0);
    assert.equal(relatedWords('lessor', 'lessee'), 0);
    assert.equal(relatedWords('notary', 'note'), 0);
    // A form of a synonym is a synonym: "commencing" for a Start Date, "ending" for an End Date.
    assert.ok(relatedWords('commencing', 'start') >= 0.8);
    assert.ok(relatedWords('beginning', 'start') >= 0.8);
    assert.ok(relatedWords('ending', 'end') >= 0.8);
    assert.equal(relatedWords('commencing', 'end'), 0);
  });
});

describe('parties and their roles', () => {
  const roles = (text: string, next?: string) =>
    Object.fromEntries(findParties(text, undefined, [], next).map((p) => [text.slice(p.start, p.end), p.roles.map((r) => r.join(' '))]));

  test('defined terms, with descriptions between the name and its term', () => {
    assert.deepEqual(roles('This Lease is made by and between Harbor Point Holdings, LLC, a Maryland limited liability company ("Landlord"), and Bright Owl Bakery Inc., an Oregon corporation ("Tenant").'), {
      'Harbor Point Holdings, LLC': ['landlord'],
      'Bright Owl Bakery Inc.': ['tenant'],
    });
  });

  test('`as` and `its` after a name, several roles at once, and a role on the next line', () => {
    assert.deepEqual(roles('FIRST CORAL BANK, N.A., individually, as a Lender, as Issuing Bank and as Swing Line Lender'), {
      'FIRST CORAL BANK, N.A.': ['lender', 'issuing bank', 'swing line lender'],
    });
    assert.deepEqual(roles('By: Mesa Verde GP LLC, its general partner, a Nevada limited liability company'), { 'Mesa Verde GP LLC': ['general partner', 'signatory'] });
    assert.deepEqual(roles('NORTHWIND TRUST COMPANY,', 'as Collateral Agent'), { 'NORTHWIND TRUST COMPANY': ['collateral agent'] });
  });

  test('a label or a definition before a name, and who signs', () => {
    assert.deepEqual(roles('Guarantor: Amos Quill Enterprises, Inc.'), { 'Amos Quill Enterprises, Inc.': ['guarantor'] });
    assert.deepEqual(roles('"Servicer" means Copperline Loan Services LLC and its successors.'), { 'Copperline Loan Services LLC': ['servicer'] });
    assert.deepEqual(roles('I, Marta J. Ellison, hereby release all claims.'), { 'Marta J. Ellison': ['signatory'] });
    assert.deepEqual(roles('Title: Senior Vice President ORCHARD CAPITAL PARTNERS, as Agent'), { 'ORCHARD CAPITAL PARTNERS': ['agent'] });
  });

  test('a defined term names the party that opens its clause, past the address between', () => {
    assert.deepEqual(roles('and c/o Linden Yard Partners, LLC, 12 Mill Road, Suite 4, Dayton Ohio 45402 ("Sublandlord"), and'), { 'Linden Yard Partners, LLC': ['sublandlord'] });
  });
});

describe('values from prose', () => {
  const CONTRACT =
    'This Services Agreement (this "Agreement") is entered into as of March 3, 2025 by and between Quarry Lane Software, Inc., a Delaware corporation (the "Company"), ' +
    'and Northgate Analytics LLC, a Colorado limited liability company (the "Consultant"). The Company shall pay each invoice within forty-five (45) days after receipt. ' +
    'Either party may terminate this Agreement upon sixty (60) days\' prior written notice, and the Consultant shall have ten (10) business days to cure any breach. ' +
    'This Agreement shall terminate on December 31, 2027 unless renewed.\n';

  test('a party whose role shares only the label\'s head noun has another role', async () => {
    const text = 'This Agreement is entered into by and between Oakhollow Aerospace LLC, a limited liability company with offices at 3475 Maple Avenue, Albany, NY 12293 (the "Disclosing Party"), and Harborview Analytics Corp., a limited liability company with offices at 1711 Industrial Parkway, Albany, NY 12225 (the "Receiving Party").\n\nEach party shall hold the other party\'s Confidential Information in strict confidence.\n\nDisclosing Party\n\nReceiving Party\n';
    assert.equal((await valueOf(text, 'Receiving Party')).best?.value, 'Harborview Analytics Corp.');
    assert.equal((await valueOf(text, 'Disclosing Party')).best?.value, 'Oakhollow Aerospace LLC');
  });

  test('a year named with its kind is read whole', async () => {
    assert.equal((await valueOf('The Severance Payment will be paid as soon as possible in calendar year 2018 following the release.\n', 'Payment Year')).best?.value, 'calendar year 2018');
  });

  test('an address whose city line stands under its street line is read whole, over both lines', async () => {
    const r = await valueOf('If intended for Sublandlord, to:\nAlkermes, Inc.\n\n852 Winter Street\n\nWaltham, Massachusetts 02451-1420\n', 'Sublandlord Address');
    assert.equal(r.best?.value, '852 Winter Street Waltham, Massachusetts 02451-1420');
    assert.equal(r.best?.anchor?.lastLeaf, r.best!.anchor!.leaf + 1);
  });

  test("a signature block's verbs are no party's name", async () => {
    // Was "SIGNED" at 0.99: the role on the line above read the verb under it as the guarantor.
    const r = await valueOf('In the presence of ELIZABETH LORD ) /s/ Elizabeth Lord\n\nGUARANTOR\n\nSIGNED by PERNILLE NORAAS )\n', 'Guarantor Name');
    assert.notEqual(r.best?.value, 'SIGNED');
    assert.ok(![r.best, ...r.candidates].some((c) => c?.value === 'SIGNED'));
  });

  test("a person's office is no firm's", async () => {
    // Was the firm at 0.97, from "Chairman of the Board" before it: the chairman is a person the entity pass did not know.
    const r = await valueOf('To Employee: Chairman of the Board Salvatore Emma, Jr. Arrhythmia Research Technology, Inc.\n', 'Board Chairman Name');
    assert.notEqual(r.best?.value, 'Arrhythmia Research Technology, Inc.');
    // The person under the office, known by the generation after the name.
    assert.equal((await valueOf('To Employee:\n\nChairman of the Board Salvatore Emma, Jr.\n\nArrhythmia Research Technology, Inc.\n', 'Board Chairman Name')).best?.value, 'Salvatore Emma, Jr.');
    // A firm may well be a manager or a general partner.
    assert.equal((await valueOf('By: Blue Heron Partners, LLC, its general partner\n', 'General Partner Name')).best?.value, 'Blue Heron Partners, LLC');
  });

  test('the party whose role the label names, by its defined term', async () => {
    assert.equal((await valueOf(CONTRACT, 'Company Name')).best?.value, 'Quarry Lane Software, Inc.');
    assert.equal((await valueOf(CONTRACT, 'Consultant')).best?.value, 'Northgate Analytics LLC');
  });

  test('dates and durations by the words that govern them, whole and without punctuation', async () => {
    assert.equal((await valueOf(CONTRACT, 'Agreement Date')).best?.value, 'March 3, 2025');
    assert.equal((await valueOf(CONTRACT, 'Termination Date')).best?.value, 'December 31, 2027');
    assert.equal((await valueOf(CONTRACT, 'Payment Deadline')).best?.value, 'forty-five (45) days');
    assert.equal((await valueOf(CONTRACT, 'Termination Notice Period')).best?.value, 'sixty (60) days');
    assert.equal((await valueOf(CONTRACT, 'Cure Period')).best?.value, 'ten (10) business days');
    // A date the text gives as a time after an event: "ten years after the Grant Date".
    assert.equal((await valueOf('The SAR shall continue in effect until the date ten years after the Grant Date.\n', 'SAR Expiration Date')).best?.value, 'ten years');
    assert.equal((await valueOf('Such reduction shall become effective thirty days after the date of notice.\n', 'Reduction Effective Date')).best?.value, 'thirty days');
  });

  test('a value the DGML already names with the property\'s label is found there, surer where the prose finder agrees', async () => {
    const text = '"2020 Notes" means the Borrower\'s Senior Notes due April 1, 2020 or any refinancing thereof to a maturity date earlier than the 91st day after the Stated Termination Date.\n';
    const r = await valueOf(text, 'Maturity Date');
    assert.equal(r.best?.value, 'April 1, 2020');
    // The later date is a bound on the maturity date ("earlier than"), no maturity date itself.
    assert.ok(!r.candidates.some((c) => c.value === '91st day after the Stated Termination Date' && c.confidence >= r.best!.confidence));
    // A party's found name ends in "Name"; a property may say the role alone.
    assert.equal((await valueOf('Blue Heron Partners, Inc., its general partner, shall sign.\n', 'General Partner')).best?.value, 'Blue Heron Partners, Inc.');
  });

  test('each value keeps its evidence: how it was found, the words that named it, page and box', async () => {
    const r = await valueOf(CONTRACT, 'Consultant');
    // Its role read by the prose finder, or the name the DGML gives it (`ConsultantName`), which the prose finder's guess does not outrank.
    assert.ok(['prose', 'found-label'].includes(r.best!.evidence.kind), r.best!.evidence.kind);
    assert.match(r.best?.evidence.labelText ?? '', /^consultant/);
    assert.ok(r.best!.location && r.best!.location.page === 1 && r.best!.location.boundingBox.width > 0);
    assert.ok(r.best!.confidence >= 0.6 && r.best!.confidence <= 1);
  });

  test('times of day with their zone, amounts with their currency mark', async () => {
    const text = 'Funds must be received by 2:30 p.m., Chicago time on the Closing Date. The Executive will receive an annual base salary of U.S. $410,000, payable monthly.\n';
    assert.equal((await valueOf(text, 'Funding Cutoff Time')).best?.value, '2:30 p.m., Chicago time');
    assert.equal((await valueOf(text, 'Annual Salary')).best?.value, 'U.S. $410,000');
    // A term in brackets after "TIME on DATE" names the hour for a time's label, the date for a date's.
    const closing = 'The merger shall become effective at 4:30 p.m. on March 3, 2021 (the "Closing Time") as set out below.\n';
    assert.equal((await valueOf(closing, 'Closing Time')).best?.value, '4:30 p.m.');
    const opening = 'The store shall open to the public at 10:00 a.m. on June 1, 2022 (the "Opening Date").\n';
    assert.equal((await valueOf(opening, 'Opening Date')).best?.value, 'June 1, 2022');
  });

  test('nothing is named where the text gives no value of the kind', async () => {
    const r = await valueOf('The parties shall cooperate in good faith on all matters arising hereunder.\n', 'Effective Date');
    assert.equal(r.best, null);
  });

  test('a docset learns a role from values set by hand: after three, the others follow', async () => {
    const names = [
      ['Pinecrest Mills Corp.', 'Harlow Foods LLC'],
      ['Ridgeway Metals Inc.', 'Saltmarsh Grocers LLC'],
      ['Tallow Creek Farms Co.', 'Birchwood Markets Inc.'],
      ['Ironbridge Dairy Corp.', 'Kestrel Provisions LLC'],
      ['Mapleton Grain Inc.', 'Oakhurst Pantry LLC'],
    ] as const;
    const docs = await Promise.all(
      names.map(([supplier, customer]) =>
        structureOf(`This Supply Agreement is made by and between ${supplier}, a Delaware corporation (the "Supplier"), and ${customer}, a Texas company (the "Customer").\n`),
      ),
    );
    const label = def('Counterparty');
    const right = (knowledge: DocsetKnowledge) => docs.slice(3).filter((d, i) => extractProperties(d, [label], knowledge)[0]!.best?.value === names[i + 3]![1]).length;
    const before = right(noKnowledge());
    const knowledge: DocsetKnowledge = { byProperty: new Map([[label.id, []]]) };
    for (let i = 0; i < 3; i++) {
      knowledge.byProperty.get(label.id)!.push({ value: names[i]![1], source: 'manual', evidence: evidenceOfManualValue(docs[i]!, names[i]![1]) });
    }
    assert.equal(knowledge.byProperty.get(label.id)![0]!.evidence?.labelText, 'customer', 'the hand-set value teaches its role');
    assert.equal(before, 0, 'unlearned, "Counterparty" names neither role');
    assert.equal(right(knowledge), 2, 'learned, the other documents get their customer');
  });
});

describe('semantic labels', () => {
  const named = async (text: string) => {
    const structure = await structureOf(text);
    const out: Record<string, string> = {};
    for (const leaf of (await import('../../src/document/structure.js')).leaves(structure.nodes)) {
      for (const s of leaf.spans ?? []) if (s.tag.kind === 'label') out[s.tag.name] = leaf.text.slice(s.start, s.end);
    }
    return out;
  };

  test('values named by the role, event or purpose their sentence gives them', async () => {
    const labels = await named(
      'This Services Agreement (this "Agreement") is entered into as of March 3, 2025 by and between Quarry Lane Software, Inc., a Delaware corporation (the "Company"), ' +
        'and Northgate Analytics LLC (the "Consultant"). The Company shall pay each invoice within forty-five (45) days after receipt. ' +
        'Either party may terminate this Agreement upon sixty (60) days prior written notice, and the Consultant shall have ten (10) business days to cure any breach. ' +
        'This Agreement shall terminate on December 31, 2027. The Consultant shall receive a base salary of $410,000 per year.\n',
    );
    assert.deepEqual(labels, {
      AgreementDate: 'March 3, 2025',
      CompanyName: 'Quarry Lane Software, Inc.',
      ConsultantName: 'Northgate Analytics LLC',
      PaymentDeadline: 'forty-five (45) days',
      TerminationNoticePeriod: 'sixty (60) days',
      CurePeriod: 'ten (10) business days',
      TerminationDate: 'December 31, 2027',
      BaseSalary: '$410,000',
    });
  });

  test('a signature block, a labelled line, notes falling due, a document dated', async () => {
    const labels = await named('By: Mesa Verde GP LLC, its general partner\n\nCommencement Date for the Initial Premises: October 1, 2026\n\nThe 4.25% Senior Notes due June 1, 2031 are outstanding.\n\nReference is made to the Pledge Agreement dated as of May 5, 2024.\n');
    assert.equal(labels.GeneralPartnerName, 'Mesa Verde GP LLC');
    assert.equal(labels.CommencementDate, 'October 1, 2026');
    assert.equal(labels.MaturityDate, 'June 1, 2031');
    // An agreement's date by its head noun, whatever kind its title says (the docset's one AgreementDate).
    assert.equal(labels.AgreementDate, 'May 5, 2024');
  });

  test('nothing is named where the context does not say', async () => {
    assert.deepEqual(await named('The meeting was held on June 3, 2025 with Orchard Analytics LLC and lasted 3 hours.\n'), {});
  });
});

test('semantic labels: a user-defined property over the same words wins', async () => {
  const { tagProperties } = await import('../../src/document/tag.js');
  const { leaves } = await import('../../src/document/structure.js');
  const structure = await structureOf('This Lease is made by and between Harbor Point Holdings, LLC (the "Landlord") and Bright Owl Bakery Inc. (the "Tenant").\n');
  const tags = () => [...leaves(structure.nodes)].flatMap((l) => (l.spans ?? []).filter((s) => s.tag.kind !== 'entity').map((s) => [s.tag.kind === 'property' ? s.tag.labelId : s.tag.kind === 'label' ? s.tag.name : '', l.text.slice(s.start, s.end)]));
  assert.deepEqual(tags(), [['LandlordName', 'Harbor Point Holdings, LLC'], ['TenantName', 'Bright Owl Bakery Inc.']]);
  tagProperties(structure, [{ labelId: 'Lessee', value: 'Bright Owl Bakery Inc.', anchor: null }]);
  assert.deepEqual(tags(), [['LandlordName', 'Harbor Point Holdings, LLC'], ['Lessee', 'Bright Owl Bakery Inc.']]);
});

test('semantic labels: a cure period before the notice that starts it', async () => {
  const structure = await structureOf('If Tenant does not cure the failure within thirty (30) days after written notice from Landlord, Landlord may terminate this Lease.\n');
  const { leaves } = await import('../../src/document/structure.js');
  const names = [...leaves(structure.nodes)].flatMap((l) => (l.spans ?? []).flatMap((s) => (s.tag.kind === 'label' ? [[s.tag.name, l.text.slice(s.start, s.end)]] : [])));
  assert.deepEqual(names, [['CurePeriod', 'thirty (30) days']]);
});
