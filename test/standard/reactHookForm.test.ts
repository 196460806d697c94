/**
 * React Hook Form with `standardSchemaResolver` (`@hookform/resolvers/standard-schema`) and a
 * content type's Standard Schema object: through `createFormControl`, the form control `useForm`
 * is built on, a submit with an invalid member calls the invalid handler with the library's message
 * under that field's name, and a valid one hands over the values; the resolver called as React
 * Hook Form calls it maps nested issues to nested field names. Imported from the built package.
 */
import { standardSchemaResolver } from "@hookform/resolvers/standard-schema";
import { messageActionContent, messageTextContent } from "messaging-events/standard";
import { createFormControl } from "react-hook-form";
import { describe, expect, it } from "vitest";

/** A text message form, submitted once with `format`; what the handlers were given. */
async function submit(format: string) {
  // The form's values are typed from the schema: no type argument.
  const { formControl } = createFormControl({
    resolver: standardSchemaResolver(messageTextContent),
    defaultValues: { body: "Hello", format },
  });
  formControl.register("body");
  formControl.register("format");
  const submitted: unknown[] = [];
  const errors: Record<string, string | undefined>[] = [];
  await formControl.handleSubmit(
    (values) => {
      submitted.push(values);
    },
    (invalid) => {
      errors.push({ body: invalid.body?.message, format: invalid.format?.message });
    },
  )();
  return { formControl, submitted, errors };
}

describe("React Hook Form with standardSchemaResolver", () => {
  it("puts the library's message under the field's name, and submits nothing", async () => {
    const { formControl, submitted, errors } = await submit("x".repeat(104));
    expect(submitted).toEqual([]);
    expect(errors).toEqual([
      { body: undefined, format: "format must be at most 100 characters long, not 104" },
    ]);
    expect(formControl.getFieldState("format")).toMatchObject({ invalid: true });
    expect(formControl.getFieldState("body")).toMatchObject({ invalid: false });
  });

  it("hands over the validated values", async () => {
    const { submitted, errors } = await submit("text/plain");
    expect(errors).toEqual([]);
    expect(submitted).toEqual([{ body: "Hello", format: "text/plain" }]);
  });

  it("maps each issue to its field, nested fields by their path", async () => {
    const resolver = standardSchemaResolver(messageActionContent);
    const options = { fields: {}, shouldUseNativeValidation: false } as const;
    const select = {
      type: "select",
      body: "Pick one",
      writeable: ["user"],
      multiple: false,
      options: [
        { label: "A", value: "a" },
        { label: 7, value: "b" },
      ],
    };
    const result = await resolver(select as never, undefined, options);
    expect(result.values).toEqual({});
    expect(result.errors).toEqual({
      options: [
        undefined,
        { label: { message: "options[1].label must be a string, not a number", type: "" } },
      ],
    });
    const valid = { ...select, options: [{ label: "A", value: "a" }] };
    expect(await resolver(valid as never, undefined, options)).toEqual({ values: valid, errors: {} });
  });
});
