import type { EntityType } from '../../../document/structure.js';

/** Label words that say what kind of value the property holds. */
const TYPE_WORDS: [EntityType[], string[]][] = [
  [['Date'], ['date', 'dated', 'day', 'birthday']],
  [['Money'], ['amount', 'fee', 'price', 'rent', 'cost', 'payment', 'salary', 'deposit', 'premium', 'compensation', 'consideration', 'charge', 'wage', 'budget']],
  [['Percent'], ['percentage', 'percent', 'rate', 'interest']],
  [
    ['Org', 'Person'],
    ['party', 'company', 'landlord', 'tenant', 'lessor', 'lessee', 'vendor', 'supplier', 'customer', 'client', 'buyer', 'seller', 'licensor', 'licensee', 'employer', 'contractor', 'organization', 'corporation', 'owner', 'recipient', 'borrower', 'lender', 'guarantor', 'purchaser'],
  ],
  [['TimeDuration'], ['term', 'period', 'duration']],
  [['USState'], ['law', 'jurisdiction', 'state']],
];

/** The entity types a property's value should have, from its label's words ("Effective Date" → Date). */
export function expectedTypes(words: readonly string[]): EntityType[] {
  // The last matching word decides: "Rent Payment Date" is a date, "Term Fee" an amount.
  for (let i = words.length - 1; i >= 0; i--) {
    for (const [types, list] of TYPE_WORDS) if (list.includes(words[i]!)) return types;
  }
  return [];
}
