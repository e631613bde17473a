import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clauseName, definedTerm, isCarePlan, nameClauses, runInHeading, titleText } from '../../src/ingest/stages/clause-labels.js';
import { topicName, topicTerms } from '../../src/ingest/stages/clause-topics.js';
import { documentKinds, domainDensities } from '../../src/ingest/stages/clause-domains.js';
import { renderDgml, sectionName, type DgmlContext } from '../../src/document/writers/dgml.js';
import { tagSemanticLabels } from '../../src/ingest/stages/semantic-labels.js';
import { leaves, wordsOf, type List, type Paragraph, type Span, type StructureModel, type StructureNode, type Table } from '../../src/document/structure.js';
import { readDgml } from '../helpers/dgml-reader.js';

const CTX: DgmlContext = { workspace: 'default', docsetName: 'Clauses', version: '0.1.0' };
const para = (text: string, spans?: Span[]): Paragraph => ({ type: 'paragraph', structure: 'p', role: 'body', leaf: spans ? { text, boxes: [], spans } : { text, boxes: [] } });
const model = (nodes: StructureNode[]): StructureModel => ({ version: 1, pages: [{ number: 1, width: 2550, height: 3300 }], paginated: false, nodes, ocrPages: [] });
const list = (items: string[]): List => ({
  type: 'list',
  ordered: true,
  style: 'lower-alpha',
  items: items.map((text, i) => ({ marker: { text: `(${String.fromCharCode(97 + i)})`, boxes: [] }, children: [para(text)] })),
});

describe('clause labels: headings', () => {
  test('run-in headings name their clause, numbering and punctuation off', () => {
    assert.equal(runInHeading('License Fee. In consideration of the license granted, Licensee shall pay the fee below.'), 'License Fee');
    assert.equal(runInHeading('Hyperlipidemia: Currently takes no statin; lipids to be rechecked in the morning.'), 'Hyperlipidemia');
    assert.equal(runInHeading("7.1 Tenant's Insurance. Tenant shall obtain and keep in full force the following coverages:"), "Tenant's Insurance");
    // A dash after the clause's number is no word of its heading; a dash after words does not end a heading ("Abdomen - Normal …").
    assert.equal(runInHeading('ARTICLE 5 - TERM The term of this Agreement shall be three (3) years.'), 'TERM');
    assert.equal(runInHeading('Abdomen - Normal bowel sounds, abdomen soft and nontender.'), null);
    // Of several in a row, the last is the clause's own.
    assert.equal(runInHeading("7. INSURANCE. 7.1 Tenant's Insurance. Tenant shall obtain and keep in full force the following coverages:"), "Tenant's Insurance");
    assert.equal(runInHeading('Section 14.3 Claims. Shipper shall file any claim within nine months of delivery.'), 'Claims');
    assert.equal(runInHeading('KEY TERMS The terms of the bonds offered are the following.'), 'KEY TERMS');
    assert.equal(runInHeading('Malaysia Inventory (EHS Register): Not determined. All components are listed.'), 'Malaysia Inventory', 'a parenthetical qualifies a heading');
    assert.equal(runInHeading('4. Hours of Operation • Engineering: Monday to Friday, 6 AM to 6 PM'), 'Hours of Operation');
    // A heading may list its subjects; a comma before a party, a sentence's opening or a lower-case word ends no heading.
    assert.equal(runInHeading('Study Procedures, Materials, and Potential Risks: We will provide an introduction session on the prototype.'), 'Study Procedures, Materials, and Potential Risks');
    assert.equal(clauseName('Payment Terms, Fees and Expenses. Client shall pay all fees within thirty days of invoice.'), 'PaymentTermsFeesAndExpenses');
    assert.equal(runInHeading('Landlord, Tenant and Guarantor. Each of them agrees to the terms below.'), null);
    assert.equal(runInHeading('Acme Inc., a Delaware corporation: the Seller agrees to the terms below.'), null);
    assert.equal(clauseName("7.1 Tenant's Insurance. Tenant shall obtain and keep in full force the following coverages:"), 'TenantsInsurance');
    assert.equal(clauseName('12.4 Choice of Law. This Agreement is governed by the laws of Oregon.'), 'ChoiceofLaw');
    // Numbered section headings lose numbers with a letter too, as Docugami's names do.
    assert.equal(sectionName('42E. Continuous Operation'), 'ContinuousOperation');
    assert.equal(sectionName('3D Printing'), '_3DPrinting', 'a word that starts with a digit is no number');
  });

  test('sentences, notes, abbreviations and forms are not headings', () => {
    assert.equal(runInHeading('The Tenant shall pay rent monthly. Rent is due on the first day.'), null);
    assert.equal(runInHeading('Payment is due. Late payments bear interest.'), null);
    assert.equal(runInHeading('Note: It is the broker’s duty to disclose any commission we pay.'), null);
    assert.equal(runInHeading('Acme Holdings, Inc. A Delaware corporation agrees to the following.'), null);
    assert.equal(runInHeading('Location: Reno, NV Accident Number: XYZ123 Date & Time: 01/02/2003 Registration: N123'), null);
    assert.equal(runInHeading('Mr. Smith agreed to the terms.'), null);
  });

  test('a text that is a heading by itself, its qualifier off', () => {
    assert.equal(titleText('Representations and Warranties.'), 'Representations and Warranties');
    assert.equal(titleText('Pollutant Cleanup and Removal – Annual Aggregate'), 'Pollutant Cleanup and Removal');
    assert.equal(titleText('Employee Benefits Liability (Claims Made Coverage)'), 'Employee Benefits Liability');
    assert.equal(titleText('THE EXAMPLE INDEMNITY COMPANY OF OHIO'), null, 'a company names a party, not a clause');
    assert.equal(titleText('Northwind Trading Co.'), null, '"Co." names a party');
    // A form's answers, an ordinal and a scope set on lines of their own are values, not titles; a note's mark is no word.
    for (const value of ['Yes', 'NO', 'Included*', 'Excluded', 'Second', 'At all described premises', 'In any one occurrence']) assert.equal(titleText(value), null, value);
    assert.equal(titleText('In Transit'), 'In Transit');
    assert.equal(titleText('Crime Coverage*'), 'Crime Coverage');
    assert.equal(titleText('Co-signer of the loan – Guarantor or surety'), 'Co-signer of the loan', 'a "Co-" word is no company');
    assert.equal(titleText('Tenant shall keep the premises clean.'), null);
    assert.equal(titleText('Potential acute health effects'), 'Potential acute health effects', 'a sentence-case title');
    assert.equal(titleText('Grease is removed daily'), null);
    assert.equal(titleText('Wear protective gloves and goggles.'), null, 'an instruction opens on its verb');
    assert.equal(titleText('Keep away from heat (see Section 7).'), null);
    assert.equal(titleText('Storage of flammable liquids'), 'Storage of flammable liquids');
    // Lines a filing or report sets alone that are no titles: an aside, an answer, a line that goes on.
    assert.equal(titleText('(Mark One)'), null);
    assert.equal(titleText('(Signature Page to Follow)'), null);
    assert.equal(titleText('None.'), null);
    assert.equal(titleText('Railways,'), null);
    assert.equal(titleText('For the transition period from to .'), null);
    assert.equal(titleText('EXHIBIT A'), 'EXHIBIT A', 'a capital letter at the end is a title\'s own');
    assert.equal(titleText('Schedule of Locations'), 'Schedule of Locations');
  });

  test('a title over a place or scope in lower case is the title', { timeout: 5000 }, () => {
    assert.equal(titleText('Business Income at described premises'), 'Business Income');
    assert.equal(titleText('Fire Extinguishers on every floor'), 'Fire Extinguishers');
    assert.equal(titleText('Limit on liability'), 'Limit on liability', 'a one-word title keeps its words');
    assert.equal(titleText('Flood Coverage'), 'Flood Coverage');
    // A line that is no such title fails at once, however long its lower-case run (the test's timeout catches a regression).
    assert.equal(titleText(`Business Income at ${'a'.repeat(120)}1`), null);
  });

  test("a form's title in capitals without its form's own word: kind, that it applies, edition", () => {
    assert.equal(titleText('WATER DAMAGE EXCLUSION ENDT'), 'WATER DAMAGE EXCLUSION');
    assert.equal(titleText('COINSURANCE WAIVER APPLIES – See Schedule of Locations.'), 'COINSURANCE WAIVER');
    assert.equal(titleText('GENERAL POLICY PROVISIONS-PREMIER'), 'GENERAL POLICY PROVISIONS');
    assert.equal(clauseName('SPOILAGE COVERAGE LIMITATION ENDT'), 'SPOILAGE COVERAGE LIMITATION'.replace(/ /g, ''));
    // Words joined inside the title stay; a title in lower case keeps its words.
    assert.equal(titleText('CAUSES OF LOSS-WATER BACKUP'), 'CAUSES OF LOSS-WATER BACKUP');
    assert.equal(titleText('SELF-STORAGE'), 'SELF-STORAGE');
    assert.equal(titleText('Vandalism Limitation Applies'), 'Vandalism Limitation Applies');
  });

  test("a one-word heading that names the duty of the party its clause opens on is that party's", () => {
    assert.equal(clauseName('9. Indemnification. Client will defend, indemnify and hold Company harmless from all claims.'), 'ClientIndemnification');
    assert.equal(clauseName('Notification. Carrier shall promptly notify Shipper of any loss or damage to a shipment.'), 'CarrierNotification');
    assert.equal(clauseName('10. Insurance. Supplier shall maintain commercial general liability insurance.'), 'Insurance', 'a heading that is no verb of the duty');
    assert.equal(clauseName('Assignment. Tenant shall not assign this Lease without consent.'), 'Assignment', 'a duty not to is no party’s');
    assert.equal(clauseName('Termination. Licensor may terminate this Agreement on notice.'), 'Termination', 'a right is no duty');
    assert.equal(clauseName('Indemnification. The parties shall indemnify each other for their own negligence.'), 'Indemnification', 'no one party');
  });

  test("a clinical text that opens on a clinician's order is a plan of treatment", () => {
    assert.ok(isCarePlan('Start patient on lisinopril 10 mg daily and recheck potassium in one week.'));
    assert.ok(isCarePlan('++Cellulitis: • Give patient cefazolin 1 g IV every 8 hours; monitor the margins of the redness.'));
    assert.ok(isCarePlan('HOLD metformin while the patient is NPO for the procedure.'));
    assert.ok(isCarePlan('a. Admit to telemetry. b. Obtain a repeat troponin in six hours.'), 'after a list marker');
    assert.equal(clauseName('Continue patient’s home inhaler, albuterol nebs prn for wheezing.'), 'TreatmentPlan');
    assert.equal(isCarePlan('Give notice to Landlord of any defect in the Premises within ten days.'), false, 'an order in a contract is no clinical plan');
    assert.equal(isCarePlan('Continued use of the Premises after the term is a holdover.'), false);
    assert.equal(isCarePlan('Patient reports two weeks of cough; mg of the dose unknown.'), false, 'no order');
  });

  test('a generic heading leaves the clause to its topic', () => {
    const text = '3.1 General. Tenant shall continuously use and occupy the Premises only for the Permitted Use and for no other purpose.';
    assert.notEqual(clauseName(text), 'General');
  });

  test('a definition is named for its term', () => {
    assert.equal(definedTerm('(c) "Service Credit" means the credit owed for each hour of downtime.'), 'Service Credit');
    assert.equal(clauseName('The term “Net Sales” shall mean gross receipts less returns.'), 'NetSalesDefinition');
  });
});

describe('clause labels: topics', () => {
  test('a clause without a heading is named by what it is about', () => {
    assert.equal(topicName('As of the date hereof Tenant has deposited with Landlord the sum of $5,000 as a security deposit, which Landlord shall return at the end of the term.'), 'Security Deposit');
    assert.equal(topicName('This Agreement shall be governed by and construed in accordance with the laws of the State of New York, without regard to its conflict of laws rules.'), 'Governing Law');
    assert.equal(topicName('Neither party shall be liable for delays caused by acts of God, war, strikes, epidemics or other causes beyond its reasonable control.'), 'Force Majeure');
  });

  test("a negation is a term of a clause's topic: what a clause forbids is not what it allows", () => {
    const terms = topicTerms('Tenant shall not assign this Lease, and no sublease shall be made.');
    assert.ok(terms.has('not assign'), 'not assign');
    assert.ok(terms.has('no sublease'), 'no sublease');
    assert.ok(!topicTerms('Tenant may assign this Lease.').has('not assign'));
  });

  test('nothing is named where the topic is not clear', () => {
    assert.equal(topicName('The parties met on Tuesday.'), null);
    assert.equal(topicName('Blue green red yellow orange purple.'), null);
    // One word of a name's, however telling, is no topic: a lease's list of forbidden uses is not about the rent's market value.
    assert.equal(topicName('flea market, bingo or other game hall or meeting room;'), null);
    assert.equal(topicName('The Fair Market Rent shall be determined by the appraiser as the rent a willing tenant would pay.'), 'Fair Market Rent Determination');
    const m = model([para('We thank you for your business and look forward to working together again soon.')]);
    nameClauses(m);
    assert.equal((m.nodes[0] as Paragraph).clause, undefined);
    assert.equal(m.clause, undefined);
  });
});

describe('clause labels: DGML', () => {
  test('a named paragraph, list, table and short document keep structure, valid names and every word', () => {
    const table: Table = {
      type: 'table',
      source: 'native',
      boxes: [],
      rows: [{ boxes: [], cells: [{ leaf: { text: 'Monthly Rent', boxes: [] }, colspan: 1, rowspan: 1, boxes: [] }, { leaf: { text: '$1,000', boxes: [] }, colspan: 1, rowspan: 1, boxes: [] }] }],
      clause: 'Rent Schedule',
    };
    const nodes: StructureNode[] = [
      para('License Fee. In consideration of the license granted, Licensee shall pay the fee below.'),
      list(['Tenant shall not use the Premises for any unlawful purpose.', 'Tenant shall not permit any nuisance.']),
      table,
      para('Taxes. Licensee shall pay all sales and use taxes on the fees.'),
      { ...para('The figures for that year follow.'), clause: '2020 Rent' },
    ];
    const m = model(nodes);
    nameClauses(m);
    assert.equal((nodes[0] as Paragraph).clause, 'LicenseFee');
    assert.equal((nodes[3] as Paragraph).clause, 'Taxes');
    assert.equal(m.clause, undefined, 'blocks with headings of their own are clauses of their own');
    const xml = renderDgml(m, CTX);
    assert.match(xml, /<docset:LicenseFee>\n<dg:chunk structure="p">License Fee\. In consideration/);
    assert.match(xml, /<docset:_2020Rent>\n<dg:chunk structure="p">/, 'a name with a leading digit gets the _ prefix');
    assert.match(xml, /<docset:RentSchedule>\n<xhtml:table structure="table">/);
    const reading = readDgml(xml);
    assert.deepEqual(reading.unprefixed, []);
    assert.deepEqual(reading.textInNonLeaf, []);
    const chunkWords = reading.chunks.flatMap((c) => wordsOf(c.text)).join(' ');
    for (const l of leaves(m.nodes)) for (const w of wordsOf(l.text)) assert.ok(chunkWords.includes(w.replace(/&/g, '&')), w);
    // Every structural element keeps its structure attribute.
    for (const tag of xml.match(/<dg:chunk structure="[^"]*"/g) ?? []) assert.match(tag, /structure="(p|div|ol|ul|li|lim)"/);
  });

  test("an address's lines are no clause titles: a street's or a postal code's figure among short lines says what they are", () => {
    const div = (text: string): Paragraph => ({ ...para(text), structure: 'div' });
    const body = 'The accident investigation is under the jurisdiction and control of the French government. Further information may be obtained from:';
    const lines = ['Aircraft Accident Investigation Bureau', 'Zone Sud', '200 rue de Paris', '93350 Le Bourget Cedex', 'France'];
    const nodes: StructureNode[] = [para(body), ...lines.map(div)];
    nameClauses(model(nodes));
    assert.deepEqual(nodes.slice(1).map((n) => (n as Paragraph).clause), lines.map(() => undefined));
    // The same short lines without a figure among them are left to the titles' rules.
    const titles: StructureNode[] = [para(body), ...['Aircraft Accident Investigation Bureau', 'Zone Sud', 'France'].map(div)];
    nameClauses(model(titles));
    assert.equal((titles[1] as Paragraph).clause, 'AircraftAccidentInvestigationBureau');
  });

  test('a short document without headings that is one clause is named around all its blocks', () => {
    const m = model([
      para('No Assignment. This Agreement may not be assigned by either party without the prior written consent of the other.'),
      para('Any attempted assignment without that consent is void.'),
    ]);
    nameClauses(m);
    assert.equal(m.clause, 'NoAssignment');
    assert.equal((m.nodes[0] as Paragraph).clause, undefined, 'the first block does not repeat the name around it');
    const xml = renderDgml(m, CTX);
    assert.match(xml, /<docset:NoAssignment>\n<dg:chunk structure="p">No Assignment\./);
    const reading = readDgml(xml);
    assert.equal(reading.chunks.length, 2);
    assert.ok(reading.chunks.every((c) => c.xpath.startsWith('/dg:chunk/docset:NoAssignment/')));
  });

  test("a short line set three times or more in one document is a column's value or a form's label, not a clause's title", () => {
    const rows = ['TX', '4/7', 'Prem/Ops.', '12,400', 'TX', '5/8', 'Prem/Ops.', '9,050', 'TX', '6/9', 'Prem/Ops.', '3,775'];
    const table = model([para('Liquor Liability'), ...rows.map((t) => para(t))]);
    nameClauses(table);
    const clauses = table.nodes.flatMap((n) => (n.type === 'paragraph' && n.clause ? [`${n.clause}=${n.leaf.text}`] : []));
    assert.ok(!clauses.some((c) => c.startsWith('PremOps=')), clauses.join(', '));
    // Twice is not enough: a title may open two parts.
    const twice = model([para('Prem/Ops.'), para('12,400'), para('Prem/Ops.'), para('9,050'), para('Liquor Liability')]);
    nameClauses(twice);
    assert.equal(twice.nodes[0]!.type === 'paragraph' && twice.nodes[0]!.clause, 'PremOps');
  });

  test("a form's label lines over short values are one whole, named by what it is about; titles over clauses are not", () => {
    const form = model(['Valuation Basis:', 'Values for scheduled locations and time element limits', 'Building Rate:', '0.410', 'Contents Rate:', '0.250', 'Premium Calculation:', '$48,200'].map((t) => para(t)));
    nameClauses(form);
    assert.equal(form.clause, 'InsurancePremiumCalculation', 'a form is not named by its first label');
    const longFirst = model(['Valuation Basis:', 'Valuation Basis is the total of values for scheduled locations plus time element limits', 'Building Rate:', '0.410', 'Premium Calculation:', '$48,200'].map((t) => para(t)));
    nameClauses(longFirst);
    assert.equal(longFirst.clause, 'InsurancePremiumCalculation', 'a first label over a longer value is a label all the same');
    const policy = model(['Policy Number', 'GL-2291-07', 'Effective', '01/01/2024 – 01/01/2025', 'Insuring Company', 'NORTHERN MUTUAL CASUALTY COMPANY'].map((t) => para(t)));
    nameClauses(policy);
    assert.equal(policy.clause, 'InsurancePolicyDetails');
    const clauses = model([
      para('Security Deposit'),
      para('Tenant has deposited with Landlord the sum of $9,000 as security for the performance of its obligations, to be returned at the end of the term.'),
      para('Governing Law'),
      para('This Lease shall be governed by and construed in accordance with the laws of the State of New York.'),
    ]);
    nameClauses(clauses);
    assert.equal(clauses.clause, undefined, 'titles over clauses head clauses of their own');
    // A label's colon on a line of its own belongs to the label: what follows it is the value, here a clause.
    const sheet = model(['Eye contact', ':', 'Rinse the eyes with plenty of water for at least fifteen minutes and get medical attention.', 'Skin contact', ':', 'Wash the skin with soap and water and remove contaminated clothing at once.'].map((t) => para(t)));
    nameClauses(sheet);
    assert.equal(sheet.clause, undefined, 'headings over clauses, their colons apart');
  });

  test('a document without headings up to 1,000 words may be one clause', () => {
    const sentence = 'Tenant shall not permit any noise, vibration or odors to emanate from the Premises so as to disturb other tenants of the Building. ';
    const m = model([para(sentence.repeat(12)), para(sentence.repeat(12)), para(sentence.repeat(10))]);
    assert.ok(wordsOf(m.nodes.map((n) => (n as Paragraph).leaf.text).join(' ')).length > 600);
    nameClauses(m);
    assert.equal(m.clause, 'NoNuisance');
    const long = model([para(sentence.repeat(14)), para(sentence.repeat(14)), para(sentence.repeat(14)), para(sentence.repeat(14))]);
    nameClauses(long);
    assert.equal(long.clause, undefined, 'a longer document is more than one clause');
  });

  test('a document without headings that names itself as it opens is that document as a whole, however long', () => {
    const clause = (heading: string) => para(`${heading}. Each party shall keep the other party's information in confidence and use it for the purpose only. `.repeat(20));
    const opening = 'This Mutual Non-Disclosure Agreement (this “Agreement”) is entered into as of May 1, 2024 between Quill Ltd. and Harbor Inc.';
    const m = model([para(opening), clause('Confidentiality'), clause('Return of Materials'), clause('Term')]);
    nameClauses(m);
    assert.equal(m.clause, 'MutualNon-DisclosureAgreement');
    assert.equal((m.nodes[1] as Paragraph).clause, 'Confidentiality', 'its clauses keep their names inside it');
    const lease = model([para('THIS OFFICE LEASE (the "Lease") is made as of March 29, 2019 by and between Quill LLC and Harbor Inc.'), clause('Rent'), clause('Use')]);
    nameClauses(lease);
    assert.equal(lease.clause, 'OFFICELEASE');
    // A name that does not end on the word it is then called by is no self-reference; nor is a document's mention of another.
    for (const text of ['This Mutual Non-Disclosure Agreement (the “Effective Date”) is dated May 1, 2024.', 'Under the Master Lease (the "Lease") Tenant pays rent.']) {
      const other = model([para(text), clause('Confidentiality'), clause('Term')]);
      nameClauses(other);
      assert.equal(other.clause, undefined, text);
    }
  });

  test('a short document that is one section is that clause, heading and body, named around both', () => {
    const section = (heading: string, children: StructureNode[]): StructureNode => ({ type: 'section', level: 1, heading: { text: heading, boxes: [] }, children });
    const m = model([section('6. Delivery Windows', [list(['Weekdays: 7 AM to 11 AM at the loading dock.', 'Saturdays: by appointment only.'])])]);
    nameClauses(m);
    assert.equal(m.clause, 'DeliveryWindows');
    const xml = renderDgml(m, CTX);
    assert.match(xml, /<docset:DeliveryWindows>\n<docset:DeliveryWindows-section>\n<dg:chunk structure="h1">6\. Delivery Windows<\/dg:chunk>/);
    assert.deepEqual(readDgml(xml).unprefixed, []);
    const general = model([section('General', [para('Tenant shall keep the Premises clean and in good order.')])]);
    nameClauses(general);
    assert.equal(general.clause, undefined, 'a generic heading names no clause');
    const numbered = model([section('Section 8.1', [para('Carrier represents that it holds every licence its carriage requires.')])]);
    nameClauses(numbered);
    assert.equal(numbered.clause, undefined, 'a number alone names no clause');
    const two = model([section('Delivery Windows', [para('Weekdays only.')]), section('Returns', [para('Within ten days.')])]);
    nameClauses(two);
    assert.equal(two.clause, undefined, 'two sections are two clauses');
  });

  test("a section's only paragraph that opens on a heading of its own is that clause inside the section's body", () => {
    const section = (heading: string, body: string): StructureNode => ({ type: 'section', level: 1, heading: { text: heading, boxes: [] }, children: [para(body)] });
    const m = model([section('7. INSURANCE.', "7.1 Tenant's Insurance. Tenant shall obtain and keep in force the following coverages.")]);
    nameClauses(m);
    const xml = renderDgml(m, CTX);
    assert.match(xml, /<docset:INSURANCE structure="div">\n<docset:TenantsInsurance>\n<dg:chunk structure="p">7\.1 Tenant's Insurance\./);
    assert.ok(readDgml(xml).chunks.some((c) => c.xpath.includes('docset:TenantsInsurance')));
    // A paragraph whose run-in heading is the section's own name repeats it: the body element itself, as before.
    const same = model([section('Insurance', 'Insurance. Tenant shall obtain and keep in force the following coverages.')]);
    nameClauses(same);
    assert.match(renderDgml(same, CTX), /<docset:Insurance structure="div">Insurance\. Tenant shall/);
  });

  test('a value label inside a named clause keeps working', () => {
    const text = 'Rent Commencement. Tenant shall pay rent beginning on March 1, 2024 and monthly thereafter.';
    const at = text.indexOf('March 1, 2024');
    const m = model([para(text, [{ start: at, end: at + 'March 1, 2024'.length, tag: { kind: 'label', name: 'RentCommencementDate' } }])]);
    tagSemanticLabels(m.nodes);
    nameClauses(m);
    const xml = renderDgml(m, CTX);
    assert.match(xml, /<docset:RentCommencement>\n<dg:chunk structure="p">.*<docset:RentCommencementDate>March 1, 2024<\/docset:RentCommencementDate>/);
    // The value is still the nearest named element around its words; the clause is around the paragraph.
    assert.equal(readDgml(xml).chunks[0]!.xpath, '/dg:chunk/docset:RentCommencement/dg:chunk');
  });
});

describe('clause labels: what kind of document a topic is named in', () => {
  // Made-up report and lease prose, each line different, long enough (over 1,000 words) to tell the kind of text.
  const report = Array.from({ length: 40 }, (_, i) => `In region ${i + 1} the agency expanded its outreach program, trained ${i + 12} staff on new mapping tools and published a public dashboard of its progress toward the goals of the strategic plan.`);
  const lease = Array.from({ length: 40 }, (_, i) => `${i + 1}.1 Tenant shall keep the Premises in good order, and Landlord shall have the right to enter the Premises on ${i + 2} days' notice to inspect them under this Lease.`);
  const deposit = 'Tenant has deposited with Landlord the sum of $5,000 as a security deposit, which Landlord shall hold as security and return to Tenant within thirty days after the end of the term.';

  test('the kinds of text around each part: a contract by its words, a report of none, a short text of any', () => {
    assert.ok(domainDensities(lease.join(' ')).contract >= 8);
    assert.ok(domainDensities(report.join(' ')).contract < 1);
    const inReport = documentKinds([...report.slice(0, 20), deposit, ...report.slice(20)]);
    assert.equal(inReport(20, 20)?.has('contract'), false, 'one paragraph of a lease inside a long report is not a contract around it');
    const inLease = documentKinds([...lease.slice(0, 20), deposit, ...lease.slice(20)]);
    assert.equal(inLease(20, 20)?.has('contract'), true);
    assert.equal(inLease(20, 20)?.has('finance'), true, "a contract's text may carry finance names (a credit agreement's interest)");
    assert.equal(documentKinds([deposit])(0, 0), undefined, 'a text too short to tell leaves every kind open');
    // A filing whose exhibit is a contract: the contract's part is a contract, the report's part far from it is not.
    const filing = documentKinds([...report, ...lease]);
    assert.equal(filing(0, 0)?.has('contract'), false);
    assert.equal(filing(79, 79)?.has('contract'), true);
  });

  test("a lease's topic is a name in a lease and in a clause on its own, never in a report that quotes it", () => {
    assert.equal(topicName(deposit), 'Security Deposit');
    assert.equal(topicName(deposit, new Set(['finance'])), null);
    assert.equal(topicName(deposit, new Set(['contract', 'lease'])), 'Security Deposit');
    assert.equal(topicName(deposit, new Set(['contract'])), null, 'a lease topic in a contract that is no lease');
    const named = (texts: string[], at: number) => {
      const nodes = texts.map((t) => para(t));
      nameClauses(model(nodes));
      return (nodes[at] as Paragraph).clause;
    };
    assert.equal(named([...lease.slice(0, 20), deposit, ...lease.slice(20)], 20), 'SecurityDeposit');
    assert.equal(named([...report.slice(0, 20), deposit, ...report.slice(20)], 20), undefined);
    assert.equal(named([deposit], 0), 'SecurityDeposit', 'a clause on its own is named by its topic');
    // A heading says what a clause is in any document: only topics are held to the kind of text.
    assert.equal(named([...report.slice(0, 20), `Security Deposit. ${deposit}`, ...report.slice(20)], 20), 'SecurityDeposit');
  });

  test("a lease's own topics are names in a lease, not in another contract (an award agreement's \"award\" is no condemnation)", () => {
    // Made-up award agreement prose: a contract by its words, with no landlord, tenant or rent.
    const award = Array.from({ length: 40 }, (_, i) => `${i + 1}.1 The Participant shall hold the Units granted under this Agreement subject to the Plan, and the Company hereby agrees to settle ${i + 3} vested Units in Shares.`);
    const taking = 'If the whole of the Premises is taken by condemnation or eminent domain, this Lease shall end on the date of the taking, and the award shall belong to Landlord.';
    assert.equal(topicName(taking), 'Condemnation');
    const kindsInAward = documentKinds([...award.slice(0, 20), taking, ...award.slice(20)])(20, 20);
    assert.equal(kindsInAward?.has('contract'), true);
    assert.equal(kindsInAward?.has('lease'), false);
    assert.equal(topicName(taking, kindsInAward), null, 'a lease topic is no name of a clause in an award agreement');
    const kindsInLease = documentKinds([...lease.slice(0, 20), taking, ...lease.slice(20)])(20, 20);
    assert.equal(kindsInLease?.has('lease'), true);
    assert.equal(topicName(taking, kindsInLease), 'Condemnation');
    // Contract names stay open in any contract, a lease among them.
    const law = 'This Agreement shall be governed by and construed in accordance with the laws of the State of New York, without regard to its conflict of laws rules.';
    assert.equal(topicName(law, kindsInAward), 'Governing Law');
    assert.equal(topicName(law, kindsInLease), 'Governing Law');
    // Insurance speaks of "premises" as often as a lease does: that is no lease.
    assert.equal(domainDensities('Coverage applies at all described premises and at premises newly acquired; each of the premises has its own limit of insurance.').lease, 0);
  });

  test('a part named by its form is named by its heading only, never by its words ("The following table shows …" is no table of contents)', () => {
    assert.equal(topicName('Contents: 1. Definitions, page 1; 2. Term, page 3; 3. Rent, page 4; 4. Use, page 6'), null);
    assert.equal(clauseName('TABLE OF CONTENTS'), 'TABLEOFCONTENTS');
  });
});

