/** Turns the spec's field tables into conformance rows: every field, required flag, enum, bound and "no additional properties". */
import { type ConformanceCase, invalid, valid } from "./conformanceCase.js";
import { type FieldSpec, type ObjectTable, objectTables } from "./specTables.js";

export const SAMPLE_DATE_TIME = "2026-11-22T18:00:00Z";

function sample(field: FieldSpec): unknown {
  switch (field.kind) {
    case "string":
      return field.maxLength !== undefined && field.maxLength < 6 ? "en".slice(0, field.maxLength) : "sample";
    case "boolean":
      return true;
    case "enum":
      return field.values[0];
    case "dateTime":
      return SAMPLE_DATE_TIME;
    case "jsonObject":
      return { source: "crm", tags: ["vip", 3, null, { nested: true }] };
    case "stringArray":
      return ["agent"];
    case "options":
      return [
        { value: "yes", label: "Yes", url: "https://example.com/yes" },
        { value: "no", label: "No", url: null },
        { value: "maybe", label: "Maybe" },
      ];
    case "booleanOptions":
      return [
        { label: "Yes", value: "true" },
        { label: "No", value: "false" },
      ];
  }
}

/** A value of the wrong JSON type for the field, and the issue code it must produce. */
function wrongType(field: FieldSpec): { value: unknown; code: "invalid_type" | "invalid_value" } {
  switch (field.kind) {
    case "string":
    case "dateTime":
      return { value: 42, code: "invalid_type" };
    case "boolean":
      return { value: "true", code: "invalid_type" };
    case "enum":
      return { value: 1, code: "invalid_value" };
    case "jsonObject":
      return { value: ["not", "an", "object"], code: "invalid_type" };
    case "stringArray":
    case "options":
    case "booleanOptions":
      return { value: "agent", code: "invalid_type" };
  }
}

function label(table: ObjectTable): string {
  const base = table.base ? ` with ${Object.keys(table.base).join("+")}` : "";
  return table.tag ? `${table.tag.key}=${table.tag.value}${base}` : base.trim();
}

function casesFor(table: ObjectTable): ConformanceCase[] {
  const { type, fields } = table;
  const prefix = label(table) ? `${label(table)}: ` : "";
  const tag = table.tag ? { [table.tag.key]: table.tag.value } : {};
  const base = { ...tag, ...table.base };
  const required = Object.fromEntries(
    Object.entries(fields)
      .filter(([, field]) => field.required)
      .map(([key, field]) => [key, sample(field)]),
  );
  const full = {
    ...base,
    ...Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, sample(field)])),
  };
  const minimal = { ...base, ...required };
  const rows: ConformanceCase[] = [
    valid(type, `${prefix}required members only`, minimal),
    valid(type, `${prefix}every member`, full),
    invalid(type, `${prefix}content is a string`, "hello", "invalid_type", "/content"),
    invalid(type, `${prefix}content is null`, null, "invalid_type", "/content"),
    invalid(type, `${prefix}content is an array`, [minimal], "invalid_type", "/content"),
  ];
  rows.push(
    table.additional
      ? valid(type, `${prefix}additional property kept`, { ...full, extra: { any: ["json"] } })
      : invalid(
          type,
          `${prefix}additional property`,
          { ...full, extra: 1 },
          "unknown_property",
          "/content/extra",
          "no-additional-properties",
        ),
  );
  for (const [key, field] of Object.entries(fields)) {
    const pointer = `/content/${key}`;
    const without = Object.fromEntries(Object.entries(full).filter(([other]) => other !== key));
    rows.push(
      field.required
        ? invalid(type, `${prefix}${key} missing`, without, "required", pointer)
        : valid(type, `${prefix}${key} omitted`, without),
    );
    const wrong = wrongType(field);
    rows.push(
      invalid(
        type,
        `${prefix}${key} of the wrong type`,
        { ...full, [key]: wrong.value },
        wrong.code,
        pointer,
      ),
    );
    if ("nullable" in field) {
      rows.push(
        field.nullable
          ? valid(type, `${prefix}${key} null`, { ...full, [key]: null })
          : invalid(
              type,
              `${prefix}${key} null`,
              { ...full, [key]: null },
              field.kind === "enum" ? "invalid_value" : "invalid_type",
              pointer,
            ),
      );
    } else if (field.kind !== "jsonObject") {
      const code = field.kind === "enum" ? "invalid_value" : "invalid_type";
      rows.push(invalid(type, `${prefix}${key} null`, { ...full, [key]: null }, code, pointer));
    } else {
      rows.push(
        invalid(
          type,
          `${prefix}${key} null`,
          { ...full, [key]: null },
          "invalid_type",
          pointer,
          "annotations-and-preconditions",
        ),
      );
    }
    switch (field.kind) {
      case "string":
        if (field.maxLength !== undefined) {
          const max = field.maxLength;
          rows.push(valid(type, `${prefix}${key} at maxLength ${max}`, { ...full, [key]: "a".repeat(max) }));
          rows.push(
            valid(
              type,
              `${prefix}${key} at maxLength ${max} in emoji (code points)`,
              { ...full, [key]: "😀".repeat(max) },
              "lengths-count-code-points",
            ),
          );
          rows.push(
            invalid(
              type,
              `${prefix}${key} over maxLength ${max}`,
              { ...full, [key]: "a".repeat(max + 1) },
              "too_long",
              pointer,
            ),
          );
          rows.push(
            invalid(
              type,
              `${prefix}${key} over maxLength ${max} in emoji`,
              { ...full, [key]: "😀".repeat(max + 1) },
              "too_long",
              pointer,
              "lengths-count-code-points",
            ),
          );
        }
        if (field.minLength !== undefined) {
          rows.push(invalid(type, `${prefix}${key} empty`, { ...full, [key]: "" }, "too_short", pointer));
          rows.push(valid(type, `${prefix}${key} one character`, { ...full, [key]: "x" }));
        } else {
          rows.push(valid(type, `${prefix}${key} empty string`, { ...full, [key]: "" }));
        }
        break;
      case "enum":
        for (const value of field.values)
          rows.push(valid(type, `${prefix}${key} = ${value}`, { ...full, [key]: value }));
        rows.push(
          invalid(
            type,
            `${prefix}${key} not an allowed value`,
            { ...full, [key]: "OTHER" },
            "invalid_value",
            pointer,
          ),
        );
        rows.push(
          invalid(
            type,
            `${prefix}${key} in the wrong case`,
            {
              ...full,
              [key]:
                field.values[0]!.toLowerCase() === field.values[0]
                  ? field.values[0]!.toUpperCase()
                  : field.values[0]!.toLowerCase(),
            },
            "invalid_value",
            pointer,
          ),
        );
        break;
      case "dateTime":
        rows.push(
          valid(
            type,
            `${prefix}${key} with offset`,
            { ...full, [key]: "2026-11-22T18:00:00.123+05:30" },
            "date-times",
          ),
        );
        rows.push(
          invalid(
            type,
            `${prefix}${key} date only`,
            { ...full, [key]: "2026-11-22" },
            "invalid_format",
            pointer,
            "date-times",
          ),
        );
        rows.push(
          invalid(
            type,
            `${prefix}${key} without offset`,
            { ...full, [key]: "2026-11-22T18:00:00" },
            "invalid_format",
            pointer,
            "date-times",
          ),
        );
        rows.push(
          invalid(
            type,
            `${prefix}${key} not a calendar day`,
            { ...full, [key]: "2026-02-30T18:00:00Z" },
            "invalid_format",
            pointer,
            "date-times",
          ),
        );
        break;
      case "stringArray":
        rows.push(invalid(type, `${prefix}${key} empty`, { ...full, [key]: [] }, "too_few_items", pointer));
        rows.push(
          invalid(
            type,
            `${prefix}${key} with a number`,
            { ...full, [key]: ["agent", 7] },
            "invalid_type",
            `${pointer}/1`,
          ),
        );
        rows.push(valid(type, `${prefix}${key} with several`, { ...full, [key]: ["agent", "customer"] }));
        break;
      case "options":
        rows.push(invalid(type, `${prefix}${key} empty`, { ...full, [key]: [] }, "too_few_items", pointer));
        rows.push(
          valid(type, `${prefix}${key} with one`, { ...full, [key]: [{ value: "ok", label: "OK" }] }),
        );
        rows.push(
          invalid(
            type,
            `${prefix}${key} option without label`,
            { ...full, [key]: [{ value: "ok" }] },
            "required",
            `${pointer}/0/label`,
          ),
        );
        rows.push(
          invalid(
            type,
            `${prefix}${key} option without value`,
            { ...full, [key]: [{ label: "OK" }] },
            "required",
            `${pointer}/0/value`,
          ),
        );
        rows.push(
          invalid(
            type,
            `${prefix}${key} option with a number value`,
            { ...full, [key]: [{ value: 1, label: "OK" }] },
            "invalid_type",
            `${pointer}/0/value`,
          ),
        );
        rows.push(
          invalid(
            type,
            `${prefix}${key} option with a number url`,
            { ...full, [key]: [{ value: "ok", label: "OK", url: 5 }] },
            "invalid_type",
            `${pointer}/0/url`,
          ),
        );
        rows.push(
          invalid(
            type,
            `${prefix}${key} option with an additional property`,
            { ...full, [key]: [{ value: "ok", label: "OK", icon: "x" }] },
            "unknown_property",
            `${pointer}/0/icon`,
            "no-additional-properties",
          ),
        );
        break;
      default:
        break;
    }
  }
  return rows;
}

/** Every row generated from the spec's tables. */
export function generatedCases(): ConformanceCase[] {
  return objectTables.flatMap(casesFor);
}
