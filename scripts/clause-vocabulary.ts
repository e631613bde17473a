/**
 * The clause-topic vocabulary (scripts/train-clauses.ts): standard names of clauses and sections of
 * the documents Quire reads (leases, NDAs, services and supply agreements, credit agreements and note
 * offerings, insurance policies and proposals, safety data sheets, accident reports, clinical
 * protocols, history-and-physical notes), each with the words and phrases that say a clause is about
 * it. Written from general knowledge of those documents, not from any benchmark row. A line:
 * `Name | cue; cue; …` (the name's own words are cues too). A line `[kind]` opens the names of one kind
 * of document (src/ingest/stages/clause-domains.ts: contract, lease, finance, insurance, aviation,
 * safety, clinical; general for names any document may use; heading for names of a document's parts
 * by their form, given by a heading only, never by what a text is about); a third field `| kind` or
 * `| kind,kind` sets one name's own.
 */
export const VOCABULARY = `
[contract]
Security Deposit | security deposit; the security; deposit as security; return of the security; letter of credit as security | lease
Permitted Use | permitted use; use and occupy the premises only; premises shall be used; use the premises for; for no other purpose | lease
Prohibited Use | shall not use; prohibited use; shall not be used for; no use shall be made | lease
No Nuisance | nuisance; noise; vibration; odors; fumes; disturb other tenants; objectionable | lease
Use Restrictions | restrictions on use; shall not permit; use of the premises shall not | lease
Rent Schedule | rent schedule; per annum; lease year | lease
Fixed Rent | fixed rent; fixed annual rent; fixed minimum rent; payable in equal monthly installments | lease
Base Rent | base rent; minimum annual rent; monthly installments of base rent | lease
Additional Rent | additional rent; operating expenses; tenant's share; escalation | lease
Rent Payment | rent shall be payable; pay rent; in advance on the first day of each month; without demand deduction or setoff | lease
Late Charge | late charge; late payment; not received within; overdue; interest at the rate
Real Estate Taxes | real estate taxes; assessments; tax year; taxes on the land and building | lease
Lease Term | shall commence on; shall end on; commencement date | lease
Renewal Option | renewal term; option to extend; extend the term; extension term; renewal notice; exercise the option | lease
Holdover | holdover; holds over; remain in possession after the expiration; month-to-month; holdover rent | lease
Surrender of Premises | surrender; quit and surrender; broom clean; end of the term; surrender the premises | lease
Assignment and Subletting | assign; assignment; sublet; sublease; subletting; transfer of this lease; transferee; landlord's consent | lease
No Assignment | may not be assigned; shall not assign; without the prior written consent; no assignment
Alterations | alterations; additions; improvements; tenant's alterations; structural alterations; landlord's consent to alterations | lease
Repairs and Maintenance | repairs; maintain; keep in good order and repair; maintenance; replacement; good condition | lease
Utilities | utilities; utility services; electricity; gas; water; sewer; utility charges; meters | lease
Heat and Electricity | heat; electricity; electric current; heating; hvac | lease
Water Charges | water charges; water meter; sewer rents; water and sewer | lease
Landlord Access | access; enter the premises; right of entry; inspect the premises; show the premises; reasonable notice to enter | lease
Signage | signs; signage; awnings; exterior signs; sign on the storefront | lease
Parking | parking; parking spaces; parking area; vehicles | lease
Common Areas | common areas; common facilities; shared areas; lobby; hallways | lease
Insurance Requirements | insurance requirements; shall maintain insurance; policies of insurance; coverage with limits
Tenant Insurance Requirements | tenant shall maintain insurance; tenant's insurance; tenant shall obtain and keep in full force; name landlord as additional insured | lease
Commercial General Liability Insurance | per occurrence
Waiver of Subrogation | waiver of subrogation; waive all rights of recovery; subrogation
Tenant Indemnification | tenant shall indemnify; indemnify and save landlord harmless; tenant shall indemnify defend and hold harmless landlord | lease
Indemnification | indemnify; indemnification; defend; claims losses liabilities damages; indemnified party
Holdover Indemnification | holdover | lease
Limitation of Liability | limitation of liability; shall not be liable; consequential damages; in no event shall; aggregate liability; liability cap
Landlord Liability Limitation | landlord's liability; interest of landlord in the building; exculpation; landlord shall not be liable | lease
Casualty | fire or other casualty; damaged or destroyed; casualty; restoration; rent abatement | lease
Condemnation | condemnation; eminent domain; taking; condemned; award | lease
Default | event of default; default; fails to pay; breach; cure period; within days after notice
Remedies | remedies; re-enter; terminate this lease; damages; accelerate; landlord may
Subordination | subordinate; subordination; mortgage; ground lease; non-disturbance; attornment | lease
Estoppel Certificate | estoppel certificate; certify that this lease is unmodified; in full force and effect | lease
Brokerage | broker; brokerage; commission; real estate broker; finder
Compliance with Laws | comply with all laws; compliance with laws; rules and regulations of governmental authorities; requirements of law; ordinances
Hazardous Materials | hazardous materials; hazardous substances; environmental laws; toxic; contamination; petroleum
No Lien | liens; mechanics lien; lien filed; discharge of liens; construction liens; no lien | lease
Rules and Regulations | rules and regulations; reasonable rules; building rules | lease
Quiet Enjoyment | quiet enjoyment; peaceably and quietly; quietly enjoy | lease
Guaranty | guaranty; guarantor; guarantee the obligations; unconditionally guarantees
Garbage Removal and Disposal | garbage; refuse; waste; rubbish; trash | lease
Extermination | exterminate; extermination; pests; vermin; rodents; insects | lease
Hours of Operation | hours of operation; business hours; open for business; monday through friday
Continuous Operation | continuously operate; conduct its business; continuous operation; open and operating; throughout the term | lease
Sidewalk Maintenance | sidewalk; snow and ice; keep the sidewalk clean | lease
Fire Safety | fire; sprinkler; fire extinguishers; fire control system; fire department | lease
Recording | record this lease; memorandum of lease; recordation; recorded
[general]
Exhibits | exhibit a; exhibit b; exhibit c; exhibits; schedule; attached hereto | contract,finance,insurance
Table of Contents | table of contents; contents; page | heading
[contract]
Authority of Signing Persons | authority; duly authorized; executing this lease on behalf; has full power and authority
Successors and Assigns | successors and assigns; binding upon; inure to the benefit; permitted assigns
Entire Agreement | entire agreement; entire understanding; whole agreement
Severability | severability; invalid or unenforceable; remaining provisions; severable
Governing Law | governing law; governed by the laws; construed in accordance with the laws of the state; jurisdiction; venue
Counterparts | counterparts; each of which shall be deemed an original; electronic signatures
Amendment | amendment; amended; modified; modification; in writing signed by; no modification
Waiver | waiver; no waiver; failure to insist; shall not be deemed a waiver; waive
Force Majeure | force majeure; acts of god; beyond its reasonable control; strikes; war; epidemic; delay in performance
Notices | notices; notice shall be in writing; addressed to; certified mail; overnight courier; deemed given
Attorneys Fees | attorneys' fees; legal fees; prevailing party; costs of enforcement
Dispute Resolution | dispute; arbitration; mediation; arbitrator; disputes arising; resolved by
Confidentiality of Arbitration | arbitration shall be confidential; arbitrator; confidential arbitration
Waiver of Jury Trial | jury trial; waive trial by jury; jury
Time of the Essence | time is of the essence
Miscellaneous | miscellaneous; headings; construction; interpretation; general provisions
Recitals | whereas; recitals; now therefore; witnesseth
Agreement Preamble | this agreement is entered into; by and between; made and entered; effective as of; between and
Execution | in witness whereof; executed this agreement; as of the date first above written; duly authorized officers; signature
Notary Acknowledgment | notary public; personally appeared; acknowledged; state of; county of; ss
Definitions | means; shall mean; definitions; defined terms; the term; as used herein | general
Confidential Information Definition | confidential information means; confidential information shall mean; non-public information; proprietary information
Exclusions from Confidential Information | shall not include information; publicly available; already known; independently developed; rightfully received from a third party; in the possession of the receiving party
Confidentiality Obligations | maintain in strict confidence; not disclose; confidential information; receiving party shall; protect the confidentiality; use solely for the purpose
Compelled Disclosure | required by law; subpoena; court order; compelled to disclose; prompt notice
Return of Confidential Information | return or destroy; return of confidential information; upon request; destroy all copies
No License | no license; no rights granted; nothing in this agreement shall be construed as granting; remains the property
No Warranty | as is; no warranty; without warranty; no representations or warranties
No Obligation | no obligation; not be required to; not obligated to enter; no commitment
Equitable Relief | irreparable damage; injunctive relief; equitable relief; specific performance
Non-Solicitation | solicit; non-solicitation; hire employees; employ or solicit
Mutual Non-Disclosure Agreement | mutual non-disclosure agreement; nda; exchange confidential information
Term of Agreement | term of this agreement; shall continue in force; remain in effect for; years from the effective date
Termination | terminate; termination; terminated; upon notice; expiration of the term
Termination for Insolvency | bankruptcy; insolvency; receiver; assignment for the benefit of creditors; insolvent
Effect of Termination | effect of termination; upon termination; following termination; after termination
Survival | survive; survival; shall survive the termination or expiration
Services | services; scope of services; company shall provide; perform the services; technical support
Statement of Work | statement of work; sow; purpose of this sow; deliverable
Deliverables | deliverables; deliverable; delivered to client; acceptance of deliverables
Fees | fees; fee; charges; pricing; price; cost
Payment Terms | payment; invoice; payable within; net 30; due upon; paid within days; payment terms
Expenses | expenses; reimburse; travel expenses; out-of-pocket; reimbursement
Taxes | taxes; sales tax; use tax; excise; withholding; tax liabilities
Intellectual Property Ownership | owner; ownership; proprietary rights; title and interest
License Grant | grants; license; right to use the software; licensee; licensor
Warranties | warrants; warranty; represents and warrants; warranty period; defects
Representations and Warranties | represents and warrants; representations and warranties; representation; warranty
Independent Contractor | independent contractor; not an employee; no partnership; joint venture; agency relationship
Change Orders | change request; changes to the sow; change in services
Publicity | publicity; press release; use of name; logo
Audit Rights | audit; books and records; inspect records; records
Software Updates | updates; upgrades; enhancements; new releases; maintenance releases
Support and Maintenance | support; maintenance; help desk; response time; service levels
Purchase Orders | purchase order; purchase orders; po; accept or reject; order acceptance
Delivery | delivery; deliver; delivery date; shipment; ship; lead time
Shipping and Risk of Loss | title and risk of loss; shipping; freight; carrier; f.o.b.; incoterms
Inspection and Acceptance | inspection; acceptance; reject nonconforming; inspect; acceptance testing
Pricing | price; pricing; standard cost; price adjustment; cost
Product Warranty | product warranty; products shall conform; specifications; free from defects
Minimum Purchase Requirements | minimum purchase; minimum quantity; forecast; purchase commitment
[finance]
Interest Rate | interest rate; fixed rate; floating rate; per annum; accrue interest; basis points
Interest Payments | interest payment dates; interest will be paid; interest payable; coupon
Redemption | redeem; redemption; redemption price; early redemption; call; optional redemption
Payment of Principal | principal; maturity; face amount; repayment of principal; stated maturity
Maturity Date | maturity date; mature; stated maturity
Conditions Precedent | conditions precedent; conditions to closing; shall have received; prior to the closing
Affirmative Covenants | covenants; shall maintain; will deliver; will furnish; financial statements
Negative Covenants | shall not incur; shall not create; negative covenants; liens; indebtedness; merge or consolidate
Events of Default | events of default; event of default; payment default; cross-default; acceleration
Use of Proceeds | use of proceeds; net proceeds; proceeds will be used
Collateral | collateral; security interest; pledge; grant a security interest; secured obligations
Transfer Restrictions | transfer restrictions; may not be offered or sold; resale; accredited investor; qualified institutional buyer; securities act
Selling Restrictions | selling restrictions; offer or sell; distribution of this offering circular; prospectus; may not be offered
ERISA Considerations | erisa; employee benefit plan; plan assets; prohibited transaction
Taxation | taxation; income tax; withholding tax; taxable income; tax treatment; holders must include
Clearance and Settlement | clearance; settlement; euroclear; clearstream; dtc; book-entry; clearing system
Key Terms | key terms; issuer; face amount; denomination; original issue date; stated maturity; the terms of the notes
Risk Factors | risk factors; risks; may lose; investment involves risks
[insurance]
Insurance Coverage Details | coverage; limit; deductible; policy; insured; coverage form; limits of insurance
Insurance Policy Details | effective; policy period; named insured
Insurance Company | insurance company; indemnity company; insurer; insuring company
Named Insured | named insured; insured; mailing address; additional named insured
Coverage Limits | limits of insurance; limit; each occurrence; aggregate limit; sublimit; per occurrence
Deductible | deductible; deductibles; per occurrence deductible; hour deductible
Premium | premium; estimated total premium; surcharge; minimum premium; premium for
Insurance Premium Calculation | rate; premium; premium calculation
Forms and Endorsements | form number; edition; endorsement; endorsements; forms and endorsements; description form number
Endorsement | endorsement; amendatory endorsement; this endorsement changes the policy
General Liability | general liability; commercial general liability; products-completed operations; personal and advertising injury
Automobile Liability | automobile; auto; covered auto symbols; hired autos; non-owned autos; combined single limit
Workers Compensation | workers compensation; employers liability; statutory
Umbrella Liability | umbrella; excess liability; follow form
Employee Benefits Liability | employee benefits liability
Property Coverage | property coverage; building; business personal property; covered property; replacement cost; blanket
Building Coverage | building; buildings; premises location; building number; building limit
Business Income Coverage | time element
Equipment Breakdown Coverage | boiler and machinery; mechanical breakdown
Flood Coverage | flood; broad form flood; flood zone
Earthquake Coverage | earthquake; earth movement
Coinsurance | coinsurance; co-insurance; agreed value
Cancellation | cancellation; cancel; nonrenewal; notice of cancellation
Commission Disclosure | commission; compensation; agent; broker; disclosure of compensation; contingent commission
Claim Services | claim; claims; claim professionals; report a claim; claims handling
Risk Control Services | loss control; safety; risk management services
Policy Proposal | proposal; we appreciate the opportunity; proposed; quote; quotation
[aviation]
Accident Details | accident number; date and time; location; aircraft damage; defining event; injuries
Aircraft Information | aircraft make; registration; model/series; aircraft category; year of manufacture; engine
Pilot Information | pilot; certificate; age; ratings; flight time; medical certificate
Meteorological Information | weather; conditions at accident site; visibility; wind; temperature; observation facility; meteorological
Airport Information | airport; runway; runway surface; airport elevation; approach
Wreckage and Impact Information | wreckage; impact; crew injuries; passenger injuries; aircraft fire; aircraft explosion
Probable Cause | probable cause; findings; the national transportation safety board determines
[safety]
Hazard Identification | hazard; classification; hazard statements; signal word; pictogram
First Aid Measures | first aid; eye contact; skin contact; inhalation; ingestion; rinse; seek medical attention
Firefighting Measures | extinguishing media; firefighting; fire fighters; hazardous combustion products; fire hazards
Handling and Storage | handling; storage; store in; precautions for safe handling; incompatible materials
Exposure Controls | exposure controls; exposure limits; occupational exposure; ventilation; engineering controls
Personal Protective Equipment | personal protective equipment; protective gloves; eye protection; respiratory protection; ppe
Physical and Chemical Properties | physical state; color; odor; ph; melting point; boiling point; flash point; vapor pressure
Stability and Reactivity | stability; reactivity; conditions to avoid; incompatible; hazardous reactions
Toxicological Information | toxicological; toxicity; acute toxicity; carcinogenicity; mutagenicity; ld50
Health Effects | health effects; acute health effects; eye contact; inhalation; skin contact; ingestion; symptoms
Decomposition Products | decomposition products; carbon dioxide; carbon monoxide; nitrogen oxides; metal oxides
Ecological Information | ecological; ecotoxicity; aquatic; persistence; biodegradability
Disposal Considerations | disposal; waste disposal; dispose of; waste
Transport Information | transport; un number; dangerous goods; dot; iata; imdg; transport regulations
Regulatory Information | regulatory; regulations; tsca; inventory; listed; osha; sara
[clinical]
Study Objectives | objectives; to evaluate; to assess; to compare; primary objective; secondary objective
Objectives and Endpoints | objectives and endpoints; endpoint; endpoints; primary endpoint
Study Design | study design; randomized; crossover; open-label; double-blind; periods; treatment periods
Study Population | study population; patients; subjects; enrolled; number of patients
Inclusion Criteria | inclusion criteria; eligible to be included; have a body mass index; aged
Exclusion Criteria | exclusion criteria; excluded; have a history of; have known; have participated; are excluded from the study
Contraception Requirements | contraception; contraceptive; childbearing potential; pregnancy; effective method of contraception
Study Treatment | study treatment; investigational product; dose; dosing; administered; injection; bolus
Pharmacokinetics | pharmacokinetics; pk; pharmacokinetic; plasma concentrations; auc; cmax; samples
Glucodynamics | glucodynamics; glucose; gd; clamp; glucose infusion
Safety Assessments | safety; adverse events; laboratory tests; vital signs; electrocardiograms; safety assessments
Adverse Events | adverse event; adverse events; serious adverse event; sae; report
Statistical Analysis | statistical; analysis; sample size; power; confidence interval; statistical analysis
Informed Consent | informed consent; consent form; ethical review; irb; ethics
Confidentiality Statement | confidential; property of; intended for the use of clinical investigators; confidentiality
Activity Restrictions | exercise; activity; strenuous; physical activity; restrictions
Dietary Restrictions | diet; meals; fasting; caffeine; alcohol; food; meal
Concomitant Medications | concomitant medications; concomitant therapy; prohibited medications; permitted medications
Discontinuation | discontinuation; discontinue; withdrawal; withdrawn from the study
Study Schedule | schedule of activities; study schedule; visit; procedures scheduled
Chief Complaint | chief complaint; cc; presenting complaint
History of Present Illness | history of present illness; hpi; presented; presents with; woman; man; year old; yo
Past Medical History | past medical history; pmh; history of; h/o; diagnosed
Past Surgical History | past surgical history; surgery; surgical history; appendectomy; cholecystectomy
Medications | medications; mg; po; qday; bid; tid; qhs; daily; tablets
Medication Regimen | medication regimen; inhibitor; blocker
Allergies | allergies; allergy; nkda; allergic to; reaction
Family History | family history; mother; father; mom; dad; siblings; died of
Social History | social history; lives with; smoking; tobacco; alcohol; drugs; occupation; married
Review of Systems | review of systems; ros; constitutional; denies; no changes; negative for
Physical Exam | physical exam; physical examination; general; vitals; exam
Vital Signs | vital signs; vitals; blood pressure; pulse; temperature; respiratory rate; bp; hr; rr; o2 sat
HEENT Exam | heent; head; eyes; ears; nose; throat; perrla; mucous membranes
Cardiovascular Exam | cardiovascular; rrr; murmurs; rubs; gallops; s1; s2; pulses; jvd
Pulmonary Exam | lungs; pulmonary; clear to auscultation; wheezes; rales; rhonchi; breath sounds
Abdominal Exam | abdomen; abdominal; bowel sounds; soft; nontender; nondistended
Neurological Exam | neurological; neuro; alert and oriented; cranial nerves; cn ii-xii; strength; reflexes; sensation; gait
Musculoskeletal Exam | musculoskeletal; range of motion; joints; extremities; edema
Skin Exam | skin; rash; lesions; warm and dry
Lab Results | labs; laboratory; sodium; potassium; creatinine; glucose; hemoglobin; wbc; cbc; bmp
Imaging Results | mri; ct; x-ray; imaging; contrast; findings; infarct; chest x-ray
EKG Findings | ekg; ecg; sinus rhythm; st elevation; qt
Assessment | assessment; impression; likely; consistent with; differential
Patient Diagnoses | diagnoses; diagnosis; problems
Treatment Plan | plan; will obtain; will start; will continue; admit; consult; follow up; give; order; monitor
Blood Pressure Control | blood pressure; bp control; hypertension; antihypertensive; sbp; htn
Diabetes Management | diabetes; dm; glucose; insulin; hba1c; glycemic control; ssi
Hyperlipidemia | hyperlipidemia; lipids; ldl; statin; cholesterol
Stroke Management | stroke; infarct; tia; neurology consult; aspirin; cva
Disposition | disposition; discharge; admit to; transfer
[contract]
Use of Premises | use of premises; use and occupy; premises shall be used solely; first class; operate the premises as | lease
Condition of Premises | as-is; condition of the premises; accept the premises; where-is; with all faults; landlord's work | lease
Landlord's Work | landlord's work; landlord shall perform; work to be performed by landlord; substantial completion | lease
Tenant's Work | tenant's work; tenant shall perform; tenant improvements; build-out; fit-out | lease
Tenant Improvements | tenant improvements; improvement allowance; allowance; construction of improvements | lease
Roof | roof; roof equipment; rooftop; on the roof of the building | lease
Fair Market Rent Determination | fair market rent; fair market value; appraiser; determination of rent; market rent | lease
Rent Abatement | abatement; rent shall abate; free rent; rent concession | lease
Rent Commencement | rent commencement date; rent shall commence | lease
Rent Credit | rent credit; credit against rent; credit against fixed rent | lease
Option to Purchase | option to purchase; purchase option; purchase price for the property
Right of First Refusal | right of first refusal; right of first offer; first opportunity
Expansion Option | expansion; expansion space; additional space | lease
Relocation | relocate; relocation; substitute premises | lease
Trade Fixtures | fixtures; trade fixtures; removal of fixtures; tenant's property; personal property | lease
Operating Expenses | operating expenses; operating costs; cam; common area maintenance; expense stop | lease,finance
Lease Rider | rider; incorporated into | lease
Building Maintenance | building maintenance; maintain the building; structural repairs; building systems | lease
Air Conditioning | air conditioning; hvac; heating ventilation; cooling | lease
Electricity | electricity; electric service; electric energy; submeter | lease
Sprinkler System | sprinkler; sprinkler system; fire suppression | lease
Grease Trap Maintenance | grease trap; grease; drain; plumbing; sewer line | lease
Access and Inspection | inspection; inspect; access to the premises; upon reasonable notice
Tenant Covenants | tenant covenants; tenant covenants and agrees; tenant agrees | lease
Landlord Covenants | landlord covenants; landlord agrees; landlord shall | lease
Tenant Default | tenant default; default by tenant; tenant fails; tenant shall fail | lease
Landlord Default | landlord default; default by landlord; landlord fails | lease
Mortgagee Protection | mortgagee; lender; holder of any mortgage; notice to mortgagee | lease
[insurance]
Insurance Coverage Limits | coverage limits; each occurrence limit; aggregate limit
Property Coverage Limits | property limits; building limit; business personal property limit; blanket limit
Building Coverage Limits | building coverage; building limit; limits of insurance buildings
Additional Coverages | additional coverages; coverage extensions; included in the coverage form
Exclusions | exclusions; excluded; does not apply to; this insurance does not apply | general
Terrorism Coverage | terrorism; certified acts of terrorism; tria; terrorism risk insurance act
Windstorm or Hail | windstorm; hail; wind; named storm
Utility Services Coverage | utility services; direct damage; interruption of utility service; power outage
Spoilage Coverage | spoilage; refrigeration; perishable stock
Crime Coverage | crime; employee dishonesty; theft; forgery; computer fraud
Cyber Liability | cyber; data breach; network security; privacy liability
Liquor Liability | liquor liability; alcoholic beverages; host liquor
Professional Liability | professional liability; errors and omissions; professional services
Property Damage Liability | property damage; legal liability; damage to premises rented; fire legal liability
Schedule of Locations | schedule of locations; premises location; location number; building number; described premises
Schedule of Forms | schedule of forms; forms applicable; form number; edition date
Premium Summary | premium summary; total premium; estimated premium; premium breakdown
Policy Period | policy period; effective date; expiration date; policy term; 12:01 a.m.
Additional Insured | additional insured; additional insureds; name as additional insured
Certificate of Insurance | certificate of insurance; certificate holder; evidence of insurance
Notice Period for Claims | notice of claim; period to file claim; report a loss; notice period
[clinical]
Home Medications | home medications; outpatient medications; continue home meds
Prescribed Medications | prescribed; mg po; prescription; restart
Current Medications | current medications; medications include; taking
Plan of Care | plan of care; care plan; plan; goals
Hypertension Management | hypertension; htn; blood pressure; lisinopril; amlodipine; hctz; beta blocker
Coronary Artery Disease | cad; coronary artery disease; cardiac cath; stent; angina; lad
Asthma Management | asthma; inhaler; albuterol; bronchodilator; wheezing
Cardiac Disease History | cardiac disease; heart attack; mi; heart failure; chf
Physical Examination Findings | physical examination; findings; exam; normal; no acute distress
Neurological Exam Findings | neurological exam; alert and oriented; cn; motor; sensory; romberg; gait; dysarthria
Mental Status | mental status; alert; oriented; mentation; cognition; mood
Study Procedures | procedures; study procedures; at each visit; blood sampling; collected
Sample Collection | blood samples; sample collection; sampling; collected at; pk samples
Protocol Title | protocol; a study to evaluate; study title; protocol number
Sponsor Information | sponsor; eli lilly; sponsor's; on behalf of the sponsor
Study Rationale | rationale; study rationale; because; justification
Background | background; introduction; previously; has been shown
Benefit Risk Assessment | benefit; risk; benefit/risk; potential risks; risk assessment
Screening | screening; screening visit; at screening; prior to enrollment
Randomization | randomization; randomized; randomly assigned; allocation
Blinding | blinding; blinded; double-blind; open-label; unblinding
Dose Justification | dose justification; dose selection; the dose of; dose rationale
Meals and Dietary Restrictions | meals; standardized meal; fasting; dietary; caffeine; mixed meal
Pregnancy | pregnancy; pregnant; lactating; breastfeeding; women of childbearing potential
Eligibility Criteria | eligible; eligibility; criteria; patients must; enrollment
Early Termination of Study | early termination; stop the study; terminate the study; study discontinuation
[contract]
Data Protection | data protection; personal data; privacy; gdpr; data privacy
Anti-Corruption | anti-corruption; bribery; fcpa; corrupt practices
Export Control | export; export control; export administration regulations; ofac; sanctions
Anti-Terrorism Compliance | anti-terrorism; embargo; sanctions; anti-money laundering; specially designated nationals; patriot act
Insurance Certificates | certificate; certificates of insurance; deliver certificates; evidencing the coverage
Records and Reports | records; reports; maintain records; recordkeeping; report to
Non-Compete | non-compete; compete; competitive business; restrictive covenant
Exclusivity | exclusive; exclusivity; exclusive supplier; sole source
Most Favored Customer | most favored; no less favorable; best pricing
Product Recall | recall; product recall; withdrawal of product; field correction
Quality Control | quality; quality control; quality assurance; specifications; inspection
Forecasts | forecast; rolling forecast; non-binding forecast; estimated requirements
Product Quantity Limits | quantity; units; maximum quantity; shall not be obligated to supply more than
Cost Adjustment | cost adjustment; adjust price; standard cost; price increase; once every twelve months
Carrier Obligations | carrier shall; carrier; transportation; shipments; motor carrier; trucks
Cargo Claims | claim for loss or damage; cargo claims; loss or damage to shipments; liability for cargo
Bill of Lading | bill of lading; shipping document; receipt of goods
Accessorial Charges | accessorial; detention; lumper; fuel surcharge
[finance]
Loan Repayment | repay; repayment; loan; installments of principal; amortization
Prepayment | prepay; prepayment; voluntary prepayment; mandatory prepayment
Commitment Fee | commitment fee; unused fee; facility fee
Financial Statements | financial statements; audited; quarterly; annual reports; balance sheet
Offering Summary | summary; offering circular; read as an introduction; the offering
Denomination | denomination; denominations; integral multiples; minimum denomination
Listing | listing; listed; stock exchange; tpex; admitted to trading
Investor Representations | purchaser represents; investor represents; purchasing the notes for its own account; accredited investor
No Redemption | not redeemable; no redemption; may not be redeemed prior to maturity
Trustee | trustee; indenture trustee; paying agent; fiscal agent
Underwriting | underwriters; underwriting; lead manager; co-managers; dealers; plan of distribution
`;
