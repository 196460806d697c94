import { describe, expectTypeOf, it } from "vitest";
import type { Issue, IssueParams } from "../internal/issue.js";
import type { EventValidationIssue } from "./EventValidationError.js";
import type { EventValidationIssueParams } from "./EventValidationIssueParams.js";

describe("issue parameters", () => {
  it("are the documented public types, by code", () => {
    // The library's internal issues are exactly the documented public ones.
    expectTypeOf<IssueParams>().toEqualTypeOf<EventValidationIssueParams>();
    expectTypeOf<Issue>().toEqualTypeOf<EventValidationIssue>();
  });

  it("narrow with the code", () => {
    const issue = {} as EventValidationIssue;
    if (issue.code === "too_long") {
      expectTypeOf(issue.params).toEqualTypeOf<{ readonly maximum: number; readonly length?: number }>();
    }
    if (issue.code === "invalid_value" && issue.params.rule === "one_of") {
      expectTypeOf(issue.params.values).toEqualTypeOf<readonly (string | number | boolean | null)[]>();
    }
    expectTypeOf<EventValidationIssueParams["unknown_property"]>().toEqualTypeOf<{ readonly key: string }>();
  });
});
