/** Cheap tests of a leaf's text for the kinds of value it may hold, so that most leaves are passed over unread. */

/** Cues of a party's role: a defined term, `as …`, `its …`, `Label:`, `means`, `I, …`, `appeared`. */
export const PARTY_CUE = /\(\s*(?:the\s+|this\s+|each\s+|collectively\s+)?["“]|["“][^"”()]{1,40}["”]\s*\)|\((?:the\s+)?\p{Lu}\p{L}*\)|\b(?:as|AS)\s+(?:an?\s+|the\s+|AN?\s+|THE\s+)?["“]?\p{L}|,\s+(?:[Ss]ole\s+|SOLE\s+)?(?:[Mm]ember|MEMBER|[Mm]anager|MANAGER|[Pp]artner|PARTNER|[Tt]enant|TENANT|[Ll]andlord|LANDLORD|[Tt]rustee|TRUSTEE|[Gg]uarantor|GUARANTOR)\s*$|,\s+its\s+\p{L}|\bits\s+\p{Ll}+(?:-\p{Ll}+)?(?:\s+\p{Ll}+){0,2},\s+\p{Lu}|\p{L}:\s*\p{Lu}|\bmean(?:s)?\s+\p{Lu}|\bI,\s+\p{Lu}|\/s\/|^\s*\p{Lu}[\p{L}.]*(?:\s+\p{Lu}[\p{L}.]*){1,3},?\s+(?:Chief|Executive|Senior|Vice|President|Secretary|Treasurer|Chairman|Managing|General|Interim|Acting|Deputy|Assistant)\b|\p{Lu}\p{Ll}+,\s+(?:\p{Lu}\p{Ll}+\s+){1,3}(?:Officer|President|Chairman|Member|Manager|Director|Partner)\b|\bappeared\s+\p{Lu}|(?:^|[.;]\s+)The\s+\p{Lu}\p{Ll}+\s+(?:is|shall\s+be|will\s+be)\s+\p{Lu}|\bbecomes?\s+(?:a|an|the)\s+\p{L}|\bis\s+the\s+(?:sole\s+)?(?:general\s+partner|managing\s+member|manager|trustee|parent|sponsor)\b|\bacting\s|\(\p{Lu}\p{L}*\)|,\s+an?\s+(?:\p{Lu}[\p{L}.]*\s+){1,3}(?:limited\s+liability\s+|limited\s+|general\s+)?(?:corporation|company|partnership)\b|,\s+an?\s+(?:corporation|company)\s+(?:incorporated|organi[sz]ed|existing|formed|duly)\b|\bbetween\s+\p{Lu}|(?:^|[.;]\s+)(?:The|THE)\s+\p{Lu}\p{L}+,\s+\p{Lu}|\p{Lu}\p{Ll}+['’]s\s+employment\b|\b(?:Inc|LLC|L\.P|LP|Corp|Corporation|Company|Ltd|N\.A)\.?,?\s+(?:TENANT|LANDLORD|BORROWER|LENDER|GUARANTOR|BUYER|SELLER|PURCHASER|LICENSEE|LICENSOR|SUBTENANT|SUBLANDLORD)\b/u;

export const MONTH_CUE = /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/u;

export const HYPHEN_CUE = /-(?:day|week|month|year|hour)/iu;

export const TIME_CUE = /\d:\d|[ap]\.?m\b|noon/iu;

export const PLAN_CUE = /\b(?:Plan|Program)\b/u;

/** "the Civil Rights Act of 1964": a law's year (the only year named on its own). */
export const ACT_YEAR_CUE = /\bAct\s+of\s+(?:1[789]|20)\d\d\b/u;

/** A rank given by its number: "at Work Level 5", "Salary Grade 12", "Tier 2". */
export const GRADE_CUE = /\b(?:Level|Grade|Tier|Band|Step)\s+\d/u;

/** A count in words and figure of a thing named by two words after it: "twenty five (25) vacation days". */
export const COUNT_NOUN_CUE = /\(\d[\d,]*\)\s+\p{Ll}{3,}\s+\p{Ll}{3,}s\b/u;

/** An area in square feet: "approximately 10,000 rentable square feet". */
export const AREA_CUE = /\d\s+(?:(?:rentable|usable|gross|leasable)\s+)?square\s+f(?:ee|oo)t/iu;

/** Shares an option or a warrant is to purchase: "an option to purchase 100,000 shares". */
export const SHARES_CUE = /\bto\s+purchase\s+\d[\d,]*\s+shares\b/iu;
