import { abstractReport } from './abstract.js';
import { documentAssembly } from './assembly.js';
import { clauseLibrary } from './clause-library.js';
import { diligenceReport } from './diligence.js';
import { excelExport } from './excel-export.js';
import type { ProjectType } from '../model/projects.js';
import type { ReportGenerator } from './report.js';
import { smartsheetExport } from './smartsheet.js';
import { tabularReport } from './tabular.js';
import { workflowExport } from './workflow.js';

/** Chat projects answer questions; they publish no files. */
const chat: ReportGenerator = async () => {};

export const GENERATORS: Record<ProjectType, ReportGenerator> = {
  TabularReport: tabularReport,
  Abstract: abstractReport,
  ExcelExport: excelExport,
  AssistedAuthoring: clauseLibrary,
  AutomationAnywhereDocumentAssembly: documentAssembly,
  AutomationAnywhereWorkFlow: workflowExport,
  ZapierWorkFlow: workflowExport,
  UiPathWorkFlow: workflowExport,
  UiPathDocumentAssembly: documentAssembly,
  PowerAutomateWorkFlow: workflowExport,
  SmartsheetExport: smartsheetExport,
  DiligenceReport: diligenceReport,
  Chat: chat,
};

/** The Content-Type of an artifact, from its name's extension (one table, kept with the artifacts). */
export { artifactContentType as contentTypeOf } from '../domain/artifacts.js';
