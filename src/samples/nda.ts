import type { SampleDocument, SampleSet } from './document.js';
import { fileStem, formatAt } from './document.js';
import { Rng } from './prng.js';
import { OFFICER_TITLES, STATES, address, companies, date, longDate, person, spelledDuration } from './vocabulary.js';

const PURPOSES = [
  'a potential joint development of warehouse automation software',
  'a possible supply arrangement for specialty packaging materials',
  'a prospective acquisition of certain assets of one party by the other',
  'a proposed co-marketing program for consumer products',
  'an evaluation of a licensing arrangement for diagnostic technology',
  'a pilot project to integrate their logistics data platforms',
];
const ENTITY = ['corporation', 'limited liability company'];
const PROPERTIES = ['Effective Date', 'Disclosing Party', 'Receiving Party', 'Governing Law', 'Term', 'Confidentiality Period'] as const;
const COUNT = 6;
const SEED = 0x4e4441;

function nda(rng: Rng, index: number): SampleDocument {
  const [disclosing, receiving] = companies(rng, 2) as [string, string];
  const effective = longDate(date(rng, 2021, 2025));
  const law = rng.pick(STATES);
  const term = spelledDuration(rng.pick([1, 2, 3, 5]), 'year');
  const survival = spelledDuration(rng.pick([2, 3, 5, 7]), 'year');
  const purpose = rng.pick(PURPOSES);
  const noticeDays = rng.pick([10, 15, 30]);
  const signers = [person(rng), person(rng)];
  const titles = rng.pickDistinct(OFFICER_TITLES, 2);
  const truth: Record<(typeof PROPERTIES)[number], string> = {
    'Effective Date': effective,
    'Disclosing Party': disclosing,
    'Receiving Party': receiving,
    'Governing Law': law,
    Term: term,
    'Confidentiality Period': survival,
  };
  return {
    fileName: `Mutual NDA ${String(index + 1).padStart(2, '0')} - ${disclosing} and ${fileStem(receiving)}.${formatAt(index)}`,
    format: formatAt(index),
    truth,
    content: {
      title: 'Mutual Non-Disclosure Agreement',
      blocks: [
        {
          kind: 'paragraph',
          text:
            `This Mutual Non-Disclosure Agreement (the "Agreement") is entered into as of ${effective} (the "Effective Date") by and between ` +
            `${disclosing}, a ${rng.pick(ENTITY)} with offices at ${address(rng)} (the "Disclosing Party"), and ${receiving}, a ` +
            `${rng.pick(ENTITY)} with offices at ${address(rng)} (the "Receiving Party"). Because each party will both disclose and ` +
            'receive information, every obligation of this Agreement binds both parties.',
        },
        { kind: 'heading', level: 1, text: '1. Purpose' },
        {
          kind: 'paragraph',
          text: `The parties wish to explore ${purpose} (the "Purpose") and will exchange Confidential Information only for the Purpose.`,
        },
        { kind: 'heading', level: 1, text: '2. Confidential Information' },
        {
          kind: 'paragraph',
          text:
            'Confidential Information means all non-public business, technical and financial information disclosed by one party to the ' +
            'other, whether orally, in writing or by inspection, that is marked confidential or that a reasonable person would understand ' +
            'to be confidential, including product plans, pricing, customer lists, source code and know-how.',
        },
        { kind: 'heading', level: 2, text: '2.1 Exclusions' },
        {
          kind: 'paragraph',
          text:
            'Confidential Information does not include information that (a) is or becomes public through no fault of the recipient, ' +
            '(b) was known to the recipient before disclosure, (c) is independently developed without use of the other party\'s ' +
            'information, or (d) is rightfully received from a third party without a duty of confidentiality.',
        },
        { kind: 'heading', level: 1, text: '3. Obligations' },
        {
          kind: 'paragraph',
          text:
            'Each party shall hold the other party\'s Confidential Information in strict confidence, use it solely for the Purpose, and ' +
            'disclose it only to its employees and advisers who need to know it and are bound by obligations at least as protective as ' +
            `these. A party compelled by law to disclose Confidential Information shall give the other party at least ${noticeDays} days' ` +
            'prior written notice where legally permitted.',
        },
        { kind: 'heading', level: 1, text: '4. Term and Termination' },
        {
          kind: 'paragraph',
          text:
            `This Agreement remains in effect for a term of ${term} from the Effective Date unless either party terminates it earlier ` +
            `on written notice. The obligations of confidentiality survive for a period of ${survival} after expiration or termination.`,
        },
        { kind: 'heading', level: 1, text: '5. Return of Materials' },
        {
          kind: 'paragraph',
          text:
            'Upon written request, or upon termination, each party shall promptly return or destroy all Confidential Information of the ' +
            'other party in its possession and certify the destruction in writing.',
        },
        { kind: 'heading', level: 1, text: '6. Governing Law' },
        {
          kind: 'paragraph',
          text: `This Agreement is governed by the laws of the State of ${law}, without regard to its conflict of laws principles.`,
        },
        { kind: 'heading', level: 1, text: '7. Signatures' },
        {
          kind: 'table',
          rows: [
            ['', 'Disclosing Party', 'Receiving Party'],
            ['Company', disclosing, receiving],
            ['Name', signers[0]!, signers[1]!],
            ['Title', titles[0]!, titles[1]!],
            ['Date', effective, effective],
          ],
        },
      ],
    },
  };
}

export const NDA_SET: SampleSet = {
  id: 'nda',
  name: 'Mutual NDAs',
  description: 'Mutual non-disclosure agreements between invented companies, with varying parties, effective dates, terms and governing law.',
  // First shipped in a8ddef3; its documents are unchanged since.
  version: '1',
  createdAt: '2026-11-22T03:58:32.000Z',
  updatedAt: '2026-11-22T03:58:32.000Z',
  suggestedProperties: PROPERTIES,
  generate: () => {
    const rng = new Rng(SEED);
    return Array.from({ length: COUNT }, (_, i) => nda(rng, i));
  },
};
