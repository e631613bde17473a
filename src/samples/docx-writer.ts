import { isNumericCell, type SampleBlock, type SampleDocumentContent } from './document.js';
import { writeZip as zip } from '../ingest/readers/write/zip.js';

// A sample document as a real DOCX (WordprocessingML): Title, Heading 1/2 and Normal styles, bold
// keys, and bordered tables with a repeated bold header row.

const NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** The text width of a Letter page with 1-inch margins, in twentieths of a point. */
const TEXT_TWIPS = 9360;

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>
</Types>`;

const PACKAGE_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="word/document.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>
</Relationships>`;

const DOCUMENT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="${REL_NS}/styles" Target="styles.xml"/>
</Relationships>`;

function paragraphStyle(id: string, name: string, pPr: string, rPr: string): string {
  return `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr>${pPr}</w:pPr><w:rPr>${rPr}</w:rPr></w:style>`;
}

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${NS}">
<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:cs="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="264" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>
${paragraphStyle('Title', 'Title', '<w:jc w:val="center"/><w:spacing w:after="240"/>', '<w:b/><w:sz w:val="36"/>')}
${paragraphStyle('Heading1', 'heading 1', '<w:keepNext/><w:spacing w:before="320" w:after="120"/><w:outlineLvl w:val="0"/>', '<w:b/><w:sz w:val="28"/>')}
${paragraphStyle('Heading2', 'heading 2', '<w:keepNext/><w:spacing w:before="240" w:after="80"/><w:outlineLvl w:val="1"/>', '<w:b/><w:sz w:val="24"/>')}
<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:left w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:right w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="000000"/></w:tblBorders><w:tblCellMar><w:left w:w="80" w:type="dxa"/><w:right w:w="80" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>
</w:styles>`;

function escapeXml(s: string): string {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}

function run(text: string, bold = false): string {
  return `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
}

function paragraph(runs: string, style?: string, align?: 'right'): string {
  const props = [style ? `<w:pStyle w:val="${style}"/>` : '', align ? `<w:jc w:val="${align}"/>` : ''].join('');
  return `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ''}${runs}</w:p>`;
}


/** Column widths in proportion to each column's longest cell (within bounds), filling the text width. */
function columnWidths(rows: string[][]): number[] {
  const natural = rows[0]!.map((_, c) => Math.min(36, Math.max(10, ...rows.map((r) => (r[c] ?? '').length + 3))));
  const total = natural.reduce((a, b) => a + b, 0);
  return natural.map((n) => Math.floor((n * TEXT_TWIPS) / total));
}

function table(rows: string[][]): string {
  const widths = columnWidths(rows);
  const grid = `<w:tblGrid>${widths.map((w) => `<w:gridCol w:w="${w}"/>`).join('')}</w:tblGrid>`;
  const body = rows
    .map((row, r) => {
      const header = r === 0;
      const cells = row
        .map((cell, c) => {
          const shade = header ? '<w:shd w:val="clear" w:color="auto" w:fill="E0E0E0"/>' : '';
          const align = !header && isNumericCell(cell.trim()) ? 'right' : undefined;
          return `<w:tc><w:tcPr><w:tcW w:w="${widths[c]}" w:type="dxa"/>${shade}</w:tcPr>${paragraph(run(cell, header), undefined, align)}</w:tc>`;
        })
        .join('');
      return `<w:tr>${header ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${cells}</w:tr>`;
    })
    .join('');
  return `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="${TEXT_TWIPS}" w:type="dxa"/></w:tblPr>${grid}${body}</w:tbl>`;
}

function block(b: SampleBlock): string {
  switch (b.kind) {
    case 'heading':
      return paragraph(run(b.text), b.level === 1 ? 'Heading1' : 'Heading2');
    case 'paragraph':
      return paragraph(run(b.text));
    case 'field':
      return paragraph(run(`${b.key}: `, true) + run(b.value));
    case 'table':
      // An empty paragraph after the table keeps Word from joining it to a following table.
      return table(b.rows) + paragraph('');
  }
}

function documentXml(doc: SampleDocumentContent): string {
  const body = [paragraph(run(doc.title), 'Title'), ...doc.blocks.map(block)].join('\n');
  const section = '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${NS}" xmlns:r="${REL_NS}"><w:body>\n${body}\n${section}</w:body></w:document>`;
}

function coreXml(title: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${escapeXml(title)}</dc:title><dc:creator>Quire sample generator</dc:creator></cp:coreProperties>`;
}

/** The document as DOCX bytes; the same content always gives the same bytes. */
export function renderSampleDocx(doc: SampleDocumentContent): Buffer {
  return zip([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: '_rels/.rels', data: PACKAGE_RELS },
    { name: 'word/document.xml', data: documentXml(doc) },
    { name: 'word/_rels/document.xml.rels', data: DOCUMENT_RELS },
    { name: 'word/styles.xml', data: STYLES },
    { name: 'docProps/core.xml', data: coreXml(doc.title) },
  ]);
}
