import type { Issue } from "./issue.js";

/**
 * Where converted issues go: the first `max` are kept, the rest only counted. Once it is full, no
 * message is written any more.
 */
export class IssueCollector {
  readonly issues: Issue[] = [];
  omitted = 0;
  constructor(readonly max: number) {}
  get full(): boolean {
    return this.issues.length >= this.max;
  }
  push(issue: Issue): void {
    if (this.full) this.omitted++;
    else this.issues.push(issue);
  }
}
