import type { Output } from "../output.js";
import { printable, type Styles } from "../terminal.js";
import { plural } from "../wording.js";
import type { ValueResult } from "./ValueResult.js";

/** The counts behind the summary line. */
export interface Tally {
  values: number;
  valid: number;
  invalid: number;
  /** Lines (or multi-line documents) that are not JSON. */
  malformed: number;
  /** Lines longer than the cap, skipped. */
  tooLong: number;
}

/** Prints results as they come and counts them. */
export interface Reporter {
  report(result: ValueResult): void;
  readonly tally: Tally;
  /** The closing line of the human format (nothing in the JSON format). */
  summary(sources: number): void;
}

/**
 * A reporter for `--format human` (problems only, `file:line: pointer: message`, then a summary) or
 * `--format json` (one JSON object per value, valid ones included, and nothing else).
 */
export function createReporter(format: "human" | "json", out: Output, styles: Styles): Reporter {
  const tally: Tally = { values: 0, valid: 0, invalid: 0, malformed: 0, tooLong: 0 };
  const count = (result: ValueResult) => {
    if (result.kind !== undefined) {
      tally.values++;
      if (result.valid) tally.valid++;
      else tally.invalid++;
    } else if (result.code === "ERR_LINE_TOO_LONG") tally.tooLong++;
    else tally.malformed++;
  };
  if (format === "json") {
    return {
      tally,
      report(result) {
        count(result);
        out.write(`${JSON.stringify(result)}\n`);
      },
      summary() {},
    };
  }
  return {
    tally,
    report(result) {
      count(result);
      if (result.valid) return;
      // An array element is named by its index apart ("file:4: [1] /type: …"): the pointer is the
      // one --format json prints, from the element's root.
      const where = `${styles.bold(`${printable(result.file)}:${result.line}`)}:${result.index === undefined ? "" : ` [${result.index}]`}`;
      for (const issue of result.issues ?? []) {
        const at = issue.pointer === "" ? "" : ` ${styles.yellow(printable(issue.pointer))}:`;
        out.write(`${where}${at} ${printable(issue.message)} ${styles.dim(`(${issue.code})`)}\n`);
      }
      if (result.omittedIssues !== undefined) {
        out.write(`${where} … and ${plural(result.omittedIssues, "more problem")} in this value\n`);
      }
    },
    summary(sources) {
      const parts = [`${plural(tally.values, "value")} in ${plural(sources, "source")}`];
      const verdicts = [styles.green(`${tally.valid} valid`)];
      if (tally.invalid > 0) verdicts.push(styles.red(`${tally.invalid} invalid`));
      if (tally.malformed > 0) verdicts.push(styles.red(`${plural(tally.malformed, "line")} not JSON`));
      if (tally.tooLong > 0) verdicts.push(styles.red(`${plural(tally.tooLong, "line")} too long`));
      out.write(`${parts[0]}: ${verdicts.join(", ")}\n`);
    },
  };
}
