import type { SampleDocument, SampleSet } from './document.js';
import { fileStem, formatAt } from './document.js';
import { Rng } from './prng.js';
import { STATES, addDays, addMonths, address, companies, date, longDate, money, person } from './vocabulary.js';

const EQUIPMENT: [description: string, prefix: string][] = [
  ['Electric forklift, 5,000 lb capacity', 'FL'],
  ['CNC vertical machining center', 'VMC'],
  ['Industrial air compressor, 50 HP', 'AC'],
  ['Pallet racking system, 20 bays', 'PR'],
  ['Laser cutting system, 4 kW fiber', 'LC'],
  ['Refrigerated trailer, 53 ft', 'RT'],
  ['Diagnostic ultrasound unit', 'US'],
  ['Commercial dishwasher, conveyor type', 'DW'],
  ['Autonomous floor scrubber', 'FS'],
  ['Server rack with UPS, 42U', 'SR'],
];
const PURCHASE_OPTIONS = ['Fair market value at expiration', '$1.00 buyout at expiration', 'Fixed purchase price of 10% of original cost', 'None'];
const PROPERTIES = ['Lease Number', 'Lessor', 'Lessee', 'Commencement Date', 'Lease Term', 'Monthly Rent', 'Security Deposit', 'Governing Law'] as const;
const COUNT = 6;
const SEED = 0x4c5345;

function lease(rng: Rng, index: number): SampleDocument {
  const [lessor, lessee] = companies(rng, 2) as [string, string];
  const commencement = date(rng, 2021, 2025);
  const months = rng.pick([24, 36, 48, 60]);
  const expiration = addDays(addMonths(commencement, months), -1);
  const number = `EL-${commencement.getUTCFullYear()}-${String(rng.int(1, 999)).padStart(3, '0')}`;
  const items = rng.pickDistinct(EQUIPMENT, rng.int(2, 4)).map(([description, prefix]) => ({
    description,
    serial: `${prefix}-${rng.int(100000, 999999)}`,
    quantity: rng.int(1, 6),
    location: address(rng),
  }));
  const rent = rng.int(800, 18000) + rng.pick([0, 0.5, 0.25, 0.75]);
  const deposit = rent * rng.pick([2, 3]);
  const law = rng.pick(STATES);
  const truth: Record<(typeof PROPERTIES)[number], string> = {
    'Lease Number': number,
    Lessor: lessor,
    Lessee: lessee,
    'Commencement Date': longDate(commencement),
    'Lease Term': `${months} months`,
    'Monthly Rent': `$${money(rent)}`,
    'Security Deposit': `$${money(deposit)}`,
    'Governing Law': law,
  };
  return {
    fileName: `Equipment Lease Abstract ${number} - ${fileStem(lessee)}.${formatAt(index)}`,
    format: formatAt(index),
    truth,
    content: {
      title: 'Equipment Lease Abstract',
      blocks: [
        {
          kind: 'paragraph',
          text:
            `This abstract summarizes the principal terms of Equipment Lease Agreement No. ${number} (the "Lease") between ${lessor} ` +
            `(the "Lessor") and ${lessee} (the "Lessee"). It is a summary for convenience only; the Lease controls in case of any conflict.`,
        },
        { kind: 'heading', level: 1, text: 'Parties' },
        { kind: 'field', key: 'Lessor', value: lessor },
        { kind: 'field', key: 'Lessor Address', value: address(rng) },
        { kind: 'field', key: 'Lessee', value: lessee },
        { kind: 'field', key: 'Lessee Address', value: address(rng) },
        { kind: 'field', key: 'Lessee Contact', value: person(rng) },
        { kind: 'heading', level: 1, text: 'Key Terms' },
        { kind: 'field', key: 'Lease Number', value: number },
        { kind: 'field', key: 'Commencement Date', value: truth['Commencement Date'] },
        { kind: 'field', key: 'Lease Term', value: truth['Lease Term'] },
        { kind: 'field', key: 'Expiration Date', value: longDate(expiration) },
        { kind: 'field', key: 'Monthly Rent', value: truth['Monthly Rent'] },
        { kind: 'field', key: 'Security Deposit', value: truth['Security Deposit'] },
        { kind: 'field', key: 'Purchase Option', value: rng.pick(PURCHASE_OPTIONS) },
        { kind: 'field', key: 'Governing Law', value: `State of ${law}` },
        { kind: 'heading', level: 1, text: 'Equipment Schedule' },
        {
          kind: 'table',
          rows: [['Description', 'Serial Number', 'Quantity', 'Location'], ...items.map((i) => [i.description, i.serial, String(i.quantity), i.location])],
        },
        { kind: 'heading', level: 1, text: 'Lessee Obligations' },
        { kind: 'heading', level: 2, text: 'Maintenance' },
        {
          kind: 'paragraph',
          text:
            'The Lessee shall keep the equipment in good working order at its own expense, following the manufacturer\'s maintenance ' +
            'schedule, and shall not alter the equipment without the Lessor\'s prior written consent.',
        },
        { kind: 'heading', level: 2, text: 'Insurance' },
        {
          kind: 'paragraph',
          text:
            `The Lessee shall insure the equipment against loss and damage for its full replacement value and carry general liability ` +
            `insurance of at least $${money(rng.pick([1, 2, 5]) * 1_000_000)} per occurrence, naming the Lessor as loss payee and additional insured.`,
        },
        { kind: 'heading', level: 1, text: 'Default and Remedies' },
        {
          kind: 'paragraph',
          text:
            `If any rent payment is more than ${rng.pick([10, 15, 30])} days late, or the Lessee breaches any other obligation and fails ` +
            'to cure it within thirty days of notice, the Lessor may accelerate the remaining rent, repossess the equipment, and ' +
            'recover its reasonable costs of enforcement.',
        },
      ],
    },
  };
}

export const LEASE_SET: SampleSet = {
  id: 'equipment-leases',
  name: 'Equipment Lease Abstracts',
  description: 'One-page abstracts of equipment leases: lessor, lessee, commencement, term, rent, deposit, an equipment schedule and governing law.',
  // First shipped in a8ddef3; its documents are unchanged since.
  version: '1',
  createdAt: '2026-11-22T03:58:32.000Z',
  updatedAt: '2026-11-22T03:58:32.000Z',
  suggestedProperties: PROPERTIES,
  generate: () => {
    const rng = new Rng(SEED);
    return Array.from({ length: COUNT }, (_, i) => lease(rng, i));
  },
};
