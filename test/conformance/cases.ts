/** The conformance table: every row generated from the spec's tables plus the handwritten ones. */
import type { ConformanceCase } from "./conformanceCase.js";
import { generatedCases } from "./generateCases.js";
import { handwrittenCases } from "./handwrittenCases.js";

export type { ConformanceCase } from "./conformanceCase.js";

export const conformanceCases: readonly ConformanceCase[] = [...generatedCases(), ...handwrittenCases()];
