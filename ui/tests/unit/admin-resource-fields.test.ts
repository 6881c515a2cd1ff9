import { describe, expect, it } from "vitest";
import { fieldNames, formBody, formValues } from "../../src/admin/resource/fields";
import type { FieldSpec } from "../../src/admin/resource/types";

interface Thing {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  rating: number;
  note: string | null;
  shown: boolean;
  approved: boolean;
  adErid: string;
  adAdvertiser: string;
}

const Nothing = () => null;

const FIELDS: FieldSpec<Thing>[] = [
  { name: "name", label: "Название", required: "Название обязательно" },
  { name: "slug", kind: "slug", label: "Slug", from: "name" },
  {
    kind: "grid",
    fields: [
      { name: "logo", kind: "image", label: "Логотип", send: "nullIfEmpty" },
      { name: "note", kind: "textarea", label: "Заметка", rows: 3 },
    ],
  },
  { kind: "custom", name: "rating", initial: "5", send: "number", Component: Nothing },
  { kind: "custom", Component: Nothing },
  { name: "shown", kind: "switch", label: "Показывать", initial: true },
  { name: "approved", kind: "switch", label: "Одобрен", editOnly: true },
  { kind: "ad", advertiserHint: "—" },
];

const THING: Thing = {
  id: "1",
  name: "Kia",
  slug: "kia",
  logo: null,
  rating: 4,
  note: null,
  shown: false,
  approved: true,
  adErid: "abc",
  adAdvertiser: "",
};

describe("a resource's fields", () => {
  it("name what a server's refusal may name, grids opened, an ad's two", () => {
    expect(fieldNames(FIELDS)).toEqual([
      "name",
      "slug",
      "logo",
      "note",
      "rating",
      "shown",
      "approved",
      "adAdvertiser",
      "adErid",
    ]);
  });

  it("start a new item from each field's initial value", () => {
    expect(formValues(FIELDS, null)).toEqual({
      name: "",
      slug: "",
      logo: "",
      note: "",
      rating: "5",
      shown: true,
      approved: false,
      adAdvertiser: "",
      adErid: "",
    });
  });

  it("start an item from its own values: numbers as text, null as empty", () => {
    expect(formValues(FIELDS, THING)).toEqual({
      name: "Kia",
      slug: "kia",
      logo: "",
      note: "",
      rating: "4",
      shown: false,
      approved: true,
      adAdvertiser: "",
      adErid: "abc",
    });
  });

  it("read a value by the field's own reader", () => {
    const spec: FieldSpec<Thing>[] = [{ name: "name", label: "Имя", value: (t) => t.slug }];
    expect(formValues(spec, THING)).toEqual({ name: "kia" });
  });

  const typed = {
    name: "  Kia ",
    slug: " kia ",
    logo: "",
    note: "  ",
    rating: "3",
    shown: true,
    approved: false,
    adAdvertiser: " ООО «Ромашка» ",
    adErid: " abc ",
  };

  it("send trimmed text, numbers, null for an empty optional, switches as they are", () => {
    expect(formBody(FIELDS, typed, null)).toEqual({
      name: "Kia",
      slug: "kia",
      logo: null,
      note: "",
      rating: 3,
      shown: true,
      adAdvertiser: "ООО «Ромашка»",
      adErid: "abc",
    });
  });

  it("send an edit-only field only when an item is edited", () => {
    expect(formBody(FIELDS, typed, THING)).toMatchObject({ approved: false });
    expect(formBody(FIELDS, typed, null)).not.toHaveProperty("approved");
  });

  it("send raw or by a function when the field says so", () => {
    const spec: FieldSpec<Thing>[] = [
      { name: "logo", kind: "image", label: "Логотип", send: "raw" },
      { name: "name", label: "Имя", send: (v) => String(v).toUpperCase() },
    ];
    expect(formBody(spec, { logo: " /a.png ", name: "kia" }, null)).toEqual({
      logo: " /a.png ",
      name: "KIA",
    });
  });
});
