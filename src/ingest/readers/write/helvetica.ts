// Helvetica as the standard 14 fonts give it: WinAnsi encoding and advance widths, for Quire's own PDF
// writers (the text-layout rendition and the sample generator). No font is embedded.

// Advance widths (1/1000 em) of WinAnsi codes 32..255, from the Adobe AFM metrics of the two fonts.
const HELVETICA = widths('278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556,1015,667,667,722,722,667,611,778,722,278,500,667,556,833,722,778,667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556,333,556,556,500,556,556,278,556,556,222,222,500,222,833,556,556,556,556,333,500,278,556,500,722,500,500,500,334,260,334,584,350,556,350,222,556,333,1000,556,556,333,1000,667,333,1000,350,611,350,350,222,222,333,333,350,556,1000,333,1000,500,333,944,350,500,667,278,333,556,556,556,556,260,556,333,737,370,556,584,333,737,333,400,584,333,333,333,556,537,278,333,333,365,556,834,834,834,611,667,667,667,667,667,667,1000,722,667,667,667,667,278,278,278,278,722,722,778,778,778,778,778,584,778,722,722,722,722,667,667,611,556,556,556,556,556,556,889,500,556,556,556,556,278,278,278,278,556,556,556,556,556,556,556,584,611,556,556,556,556,500,556,500');
const HELVETICA_BOLD = widths('278,333,474,556,556,889,722,238,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,333,333,584,584,584,611,975,722,722,722,722,667,611,778,722,278,556,722,611,833,722,778,667,778,722,667,611,722,667,944,667,667,611,333,278,333,584,556,333,556,611,556,611,556,333,611,611,278,278,556,278,889,611,611,611,611,389,556,333,611,556,778,556,556,500,389,280,389,584,350,556,350,278,556,500,1000,556,556,333,1000,667,333,1000,350,611,350,350,278,278,500,500,350,556,1000,333,1000,556,333,944,350,500,667,278,333,556,556,556,556,280,556,333,737,370,556,584,333,737,333,400,584,333,333,333,611,556,278,333,333,365,556,834,834,834,611,722,722,722,722,722,722,1000,722,667,667,667,667,278,278,278,278,722,722,778,778,778,778,778,584,778,722,722,722,722,667,667,611,556,556,556,556,556,556,889,556,556,556,556,556,278,278,278,278,611,611,611,611,611,611,611,584,611,611,611,611,611,556,611,556');

function widths(csv: string): number[] {
  return csv.split(',').map(Number);
}

// Unicode characters with a WinAnsi code in 0x80..0x9f (the rest of 0xa0..0xff is Latin-1 itself).
const WIN_ANSI_HIGH: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89,
  'Š': 0x8a, '‹': 0x8b, 'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95,
  '–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};
const FALLBACKS: Record<string, string> = {
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2212': '-', '\u2022': '•', '\u25cf': '•', '\u25aa': '•',
  '\u2032': "'", '\u2033': '"', '\u00a0': ' ', '\u2009': ' ', '\u200a': ' ', '\u2002': ' ', '\u2003': ' ',
  '\u200b': '', '\u200c': '', '\u200d': '', '\ufeff': '', '\u00ad': '',
};

/** WinAnsi codes for a string: accents are dropped where the base letter exists, the rest become '?'. */
export function toWinAnsi(text: string): number[] {
  const out: number[] = [];
  for (const ch of text.replace(/\t/g, '    ')) {
    const c = encodeChar(ch);
    if (c !== undefined) {
      out.push(c);
      continue;
    }
    const fb = FALLBACKS[ch] ?? ch.normalize('NFKD').replace(/\p{M}/gu, '');
    const codes = [...fb].map(encodeChar);
    if (fb && fb !== ch && codes.every((x) => x !== undefined)) out.push(...(codes as number[]));
    else if (fb !== '') out.push(0x3f);
  }
  return out;
}

function encodeChar(ch: string): number | undefined {
  const cp = ch.codePointAt(0)!;
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa1 && cp <= 0xff && cp !== 0xad)) return cp;
  return WIN_ANSI_HIGH[ch];
}

export function textWidth(codes: number[], bold: boolean, size: number): number {
  const table = bold ? HELVETICA_BOLD : HELVETICA;
  let w = 0;
  for (const c of codes) w += table[c - 32] ?? 556;
  return (w * size) / 1000;
}
