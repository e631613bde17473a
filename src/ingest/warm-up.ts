// A new analysing thread runs its pipeline on a made-up contract before its first document, while
// it waits idle: V8 compiles a stage's hot functions only after running them a while, and an
// analysing thread's first documents otherwise pay that (bench/README.md, `bench/labels`, fourth session).
import { analyzeDocument } from './pipeline.js';
import { readDocument } from './readers/index.js';

/** The text a thread warms up on: the constructs the tagging stages name (parties, dates, periods, amounts, run-in headings, lists). */
export const WARM_UP_TEXT = `SERVICES AGREEMENT

This Services Agreement (the "Agreement") is entered into as of March 3, 2025 (the "Effective Date") by and between Northwind Holdings LLC, a Delaware limited liability company (the "Company"), and Example Analytics, Inc., a California corporation ("Provider").

1. Term. The initial term of this Agreement shall commence on the Effective Date and continue for a period of three (3) years, unless sooner terminated as provided herein. Either party may renew for one additional term of twelve (12) months by written notice given no later than ninety (90) days before the expiration date.

2. Fees. The Company shall pay Provider a monthly fee of $12,500.00, payable within thirty (30) days after receipt of each invoice. Late payments bear interest at the rate of 1.5% per month. The hourly rate for additional services is $175.00 per hour.

3. Security Deposit. Upon execution, the Company shall deliver a security deposit in the amount of Twenty Five Thousand Dollars ($25,000), to be returned within ten (10) business days after the end of the term.

4. Termination. Either party may terminate this Agreement upon sixty (60) days' prior written notice. If a party fails to cure a material breach within fifteen (15) days after notice, the other party may terminate immediately.

5. Confidentiality. Each party shall hold the other's Confidential Information in confidence for a period of five (5) years following termination, and shall:
(a) use it only to perform this Agreement;
(b) not disclose it to any third party without prior written consent; and
(c) return or destroy it within twenty (20) days of a written request.

6. Notices. All notices shall be in writing and sent to the Company at 100 Main Street, Suite 400, Springfield, Illinois 62701, Attention: Jane Smith, General Counsel, or to Provider at 22 Harbor Road, Portland, Maine 04101.

7. Governing Law. This Agreement shall be governed by the laws of the State of New York.

IN WITNESS WHEREOF, the parties have executed this Agreement as of the date first written above.

NORTHWIND HOLDINGS LLC
By: John Doe
Title: Chief Executive Officer
Date: March 3, 2025

Schedule A
Service         Monthly Fee     Start Date
Hosting         $4,000          April 1, 2025
Support         $8,500          April 15, 2025
`;

/**
 * Runs the text (DECLARATIVE) and PDF (PAGINATED) pipelines on WARM_UP_TEXT until `budgetMs` is spent
 * (one document at least) or `stop()` says a real request came (checked between documents, after
 * yielding to the event loop so that a request can arrive); returns how many documents were analysed.
 * A failure is not the warm-up's concern: a real document would meet the same code and report it.
 */
export async function warmUpAnalysis(budgetMs: number, stop: () => boolean = () => false): Promise<number> {
  const until = performance.now() + budgetMs;
  const stopped = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return stop() || (analysed > 0 && performance.now() >= until);
  };
  let analysed = 0;
  try {
    while (!(await stopped())) {
      // Read afresh each round: analysing a model changes it (its nodes are tagged in place).
      const text = await readDocument(Buffer.from(WARM_UP_TEXT, 'utf8'), 'txt');
      const pdf = await readDocument(Buffer.from(text.pdf), 'pdf');
      for (const model of [text, pdf]) {
        if (model === pdf && (await stopped())) return analysed;
        await analyzeDocument(model, { ocrBudgetMs: 0 });
        analysed++;
      }
    }
  } catch {
    // Nothing to warm; the thread serves as it would have.
  }
  return analysed;
}
