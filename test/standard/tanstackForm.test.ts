/**
 * TanStack Form (`@tanstack/form-core`, which every framework adapter wraps: `useForm` takes the
 * same options) with a content type's Standard Schema object as the form's validator: the
 * library's message lands on the field the issue names, and a valid form submits the values.
 * Imported from the built package, as a user's app does.
 */
import { FieldApi, FormApi } from "@tanstack/form-core";
import type { EventContentInput } from "messaging-events/events";
import { messageMediaContent, messageTextContent } from "messaging-events/standard";
import { describe, expect, it } from "vitest";

function textForm(onSubmit: (value: EventContentInput<"s.message.text">) => void = () => {}) {
  const form = new FormApi({
    defaultValues: { body: "Hello", format: "text/plain" } as EventContentInput<"s.message.text">,
    validators: { onChange: messageTextContent, onSubmit: messageTextContent },
    onSubmit: ({ value }) => onSubmit(value),
  });
  form.mount();
  const body = new FieldApi({ form, name: "body" });
  const format = new FieldApi({ form, name: "format" });
  body.mount();
  format.mount();
  return { form, body, format };
}

describe("TanStack Form with a Standard Schema object", () => {
  it("shows the library's message on the field the issue names, and clears it when fixed", () => {
    const { body, format } = textForm();
    format.handleChange("x".repeat(104));
    expect(format.state.meta.errors).toEqual([
      expect.objectContaining({
        message: "format must be at most 100 characters long, not 104",
        path: ["format"],
        code: "too_long",
      }),
    ]);
    expect(body.state.meta.errors).toEqual([]);
    format.handleChange("text/markdown");
    expect(format.state.meta.errors).toEqual([]);
  });

  it("puts a missing member's message on that field", () => {
    const form = new FormApi({
      defaultValues: { mediaId: "media-1", label: "cat.png" } as EventContentInput<"s.message.media">,
      validators: { onChange: messageMediaContent },
    });
    form.mount();
    const mediaId = new FieldApi({ form, name: "mediaId" });
    mediaId.mount();
    mediaId.handleChange(undefined as unknown as string);
    expect(
      mediaId.state.meta.errors.map((error) => (error as unknown as { message: string }).message),
    ).toEqual(["mediaId is required: expected a string"]);
  });

  it("submits valid values, and refuses invalid ones with the field's message", async () => {
    const submitted: unknown[] = [];
    const { form, body } = textForm((value) => submitted.push(value));
    await form.handleSubmit();
    expect(submitted).toEqual([{ body: "Hello", format: "text/plain" }]);
    body.setValue(42 as unknown as string);
    await form.handleSubmit();
    expect(submitted).toHaveLength(1);
    expect(form.state.canSubmit).toBe(false);
    expect(body.state.meta.errors).toEqual([
      expect.objectContaining({ message: "body must be a string, not a number", path: ["body"] }),
    ]);
  });
});
