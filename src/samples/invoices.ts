import type { SampleDocument, SampleSet } from './document.js';
import { formatAt } from './document.js';
import { Rng } from './prng.js';
import { addDays, address, companies, date, longDate, money } from './vocabulary.js';

/** Goods with a plausible HS code and unit price range. */
const GOODS: [description: string, hsCode: string, minPrice: number, maxPrice: number][] = [
  ['Stainless steel hex bolts, M10 x 40 mm (box of 100)', '7318.15', 18, 42],
  ['Industrial LED high-bay light, 150 W', '9405.11', 85, 160],
  ['Corrugated shipping cartons, double wall (bundle of 25)', '4819.10', 22, 48],
  ['Cotton canvas work aprons', '6211.43', 9, 21],
  ['Brushless DC motor, 24 V, 300 W', '8501.31', 120, 260],
  ['Nitrile gloves, powder free (case of 1,000)', '4015.19', 45, 90],
  ['Aluminium extrusion profile, 6 m length', '7604.29', 30, 75],
  ['Programmable logic controller module', '8537.10', 310, 720],
  ['Food-grade silicone tubing, 30 m roll', '3917.32', 55, 120],
  ['Ceramic ball bearings, 6204 series', '8482.10', 12, 28],
];
const INCOTERMS = ['FOB Shipping Point', 'CIF Destination', 'DAP Buyer Warehouse', 'EXW Seller Facility', 'DDP Buyer Premises'];
const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD'];
const COUNTRIES = ['United States', 'Germany', 'Mexico', 'Canada', 'Vietnam', 'Portugal'];
const PROPERTIES = ['Invoice Number', 'Invoice Date', 'Due Date', 'Seller', 'Buyer', 'Total Amount'] as const;
const COUNT = 6;
const SEED = 0x494e56;

function invoice(rng: Rng, index: number): SampleDocument {
  const [seller, buyer] = companies(rng, 2) as [string, string];
  const issued = date(rng, 2022, 2025);
  const termsDays = rng.pick([15, 30, 45, 60]);
  const number = `INV-${issued.getUTCFullYear()}-${String(rng.int(100, 9999)).padStart(5, '0')}`;
  const currency = rng.pick(CURRENCIES);
  const taxRate = rng.pick([0, 5, 7.5, 8.25, 10]);
  const lines = rng.pickDistinct(GOODS, rng.int(3, 6)).map(([description, hs, lo, hi]) => {
    const quantity = rng.int(2, 120);
    const unit = rng.int(lo * 100, hi * 100) / 100;
    return { description, hs, quantity, unit, amount: Math.round(quantity * unit * 100) / 100 };
  });
  const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
  const tax = Math.round(subtotal * taxRate) / 100;
  const freight = rng.int(40, 900);
  const total = `${currency} ${money(subtotal + tax + freight)}`;
  const truth: Record<(typeof PROPERTIES)[number], string> = {
    'Invoice Number': number,
    'Invoice Date': longDate(issued),
    'Due Date': longDate(addDays(issued, termsDays)),
    Seller: seller,
    Buyer: buyer,
    'Total Amount': total,
  };
  return {
    fileName: `Commercial Invoice ${number}.${formatAt(index)}`,
    format: formatAt(index),
    truth,
    content: {
      title: 'Commercial Invoice',
      blocks: [
        { kind: 'field', key: 'Invoice Number', value: number },
        { kind: 'field', key: 'Invoice Date', value: truth['Invoice Date'] },
        { kind: 'field', key: 'Payment Terms', value: `Net ${termsDays} days` },
        { kind: 'field', key: 'Due Date', value: truth['Due Date'] },
        { kind: 'heading', level: 1, text: 'Seller' },
        { kind: 'paragraph', text: `${seller}, ${address(rng)}` },
        { kind: 'heading', level: 1, text: 'Buyer' },
        { kind: 'paragraph', text: `${buyer}, ${address(rng)}` },
        { kind: 'heading', level: 1, text: 'Shipment' },
        { kind: 'field', key: 'Incoterms', value: rng.pick(INCOTERMS) },
        { kind: 'field', key: 'Country of Origin', value: rng.pick(COUNTRIES) },
        { kind: 'field', key: 'Currency', value: currency },
        { kind: 'heading', level: 1, text: 'Line Items' },
        {
          kind: 'table',
          rows: [
            ['Description', 'HS Code', 'Quantity', 'Unit Price', 'Amount'],
            ...lines.map((l) => [l.description, l.hs, String(l.quantity), money(l.unit), money(l.amount)]),
          ],
        },
        { kind: 'field', key: 'Subtotal', value: `${currency} ${money(subtotal)}` },
        { kind: 'field', key: `Sales Tax (${taxRate}%)`, value: `${currency} ${money(tax)}` },
        { kind: 'field', key: 'Freight', value: `${currency} ${money(freight)}` },
        { kind: 'field', key: 'Total Amount Due', value: total },
        { kind: 'heading', level: 1, text: 'Payment Instructions' },
        {
          kind: 'paragraph',
          text:
            `Please pay by wire transfer within ${termsDays} days of the invoice date, quoting invoice number ${number}. ` +
            'Late payments accrue interest at one percent per month. The seller certifies that the goods described above are of the ' +
            'stated origin and that this invoice is true and correct.',
        },
      ],
    },
  };
}

export const INVOICE_SET: SampleSet = {
  id: 'invoices',
  name: 'Commercial Invoices',
  description: 'Commercial invoices between invented sellers and buyers: invoice numbers, dates, payment terms, a line-item table and totals.',
  // First shipped in a8ddef3; its documents are unchanged since.
  version: '1',
  createdAt: '2026-11-22T03:58:32.000Z',
  updatedAt: '2026-11-22T03:58:32.000Z',
  suggestedProperties: PROPERTIES,
  generate: () => {
    const rng = new Rng(SEED);
    return Array.from({ length: COUNT }, (_, i) => invoice(rng, i));
  },
};
