import { describe, expect, it } from "vitest";
import {
  ACTS_URL,
  actByText,
  actCountsText,
  actUrl,
  addWorkingDays,
  answerBody,
  answerErrors,
  answerUrl,
  BAD_EMAIL,
  CANCELLED_MONTHS_MESSAGE,
  closedText,
  type DataRequest,
  daysBetween,
  dayText,
  dueLabel,
  eraseBody,
  erasedSummary,
  eraseWarning,
  exportBody,
  exportFileName,
  formatPhone,
  foundSummary,
  KIND_LABELS,
  kindLabel,
  maskEmail,
  maskedSubject,
  maskPhone,
  moscowToday,
  NOTE_TOO_LONG,
  NOTHING_FOUND,
  newRequestBody,
  noteRule,
  nothingFound,
  OUTCOME_LABELS,
  openRequests,
  outcomeLabel,
  type PersonData,
  RECEIVED_ON_RANGE,
  REFUSAL_NOTE_REQUIRED,
  RETENTION_YEARS_MESSAGE,
  receivedOnError,
  requestFormDefaults,
  retentionDueText,
  retentionForm,
  retentionPatch,
  retentionPeriodText,
  retentionRules,
  retentionRunText,
  SUBJECT_REQUIRED,
  sameSubject,
  sentence,
  subjectBody,
  subjectOf,
  subjectRules,
  subjectText,
  workingDaysBetween,
} from "../../src/admin/lib/personalData";

function request(fields: Partial<DataRequest> = {}): DataRequest {
  return {
    id: 1,
    kind: "erase",
    subject: "+7 921 123-45-67, anna@example.ru",
    phone: "+79211234567",
    email: "anna@example.ru",
    receivedOn: "2026-11-23",
    dueOn: "2026-12-07",
    answeredAt: null,
    outcome: null,
    note: "",
    createdBy: "demo",
    overdue: false,
    ...fields,
  } as DataRequest;
}

const EMPTY: PersonData = {
  leads: [],
  comments: [],
  subscriptions: [],
  deliveries: [],
  audit: [],
  consentVersions: [],
};

describe("labels", () => {
  it("names each kind and outcome in Russian", () => {
    expect(KIND_LABELS).toEqual({
      access: "О предоставлении сведений",
      erase: "Об удалении",
      withdrawal: "Отзыв согласия по ссылке из письма",
    });
    expect(kindLabel("withdrawal")).toBe("Отзыв согласия по ссылке из письма");
    expect(kindLabel("unknown")).toBe("unknown");
    expect(OUTCOME_LABELS.erased).toBe("Данные удалены");
    expect(outcomeLabel("provided")).toBe("Сведения предоставлены");
    expect(outcomeLabel("nothing_held")).toBe("Данных нет");
    expect(outcomeLabel("refused")).toBe("Отказано");
    expect(outcomeLabel(null)).toBe("");
  });

  it("builds the URLs without the subject in them", () => {
    expect(answerUrl(7)).toBe("/api/admin/personal-data/requests/7/answer");
    expect(actUrl(3)).toBe("/api/admin/personal-data/acts/3");
    expect(ACTS_URL).toBe("/api/admin/personal-data/acts");
  });
});

describe("dates and the deadline", () => {
  it("takes today's date in Moscow, not in UTC", () => {
    // 22:30 UTC on the 25th is already the 26th in Moscow.
    expect(moscowToday(new Date("2026-11-25T22:30:00Z"))).toBe("2026-11-26");
    expect(moscowToday(new Date("2026-11-25T20:30:00Z"))).toBe("2026-11-25");
  });

  it("counts working days Monday to Friday", () => {
    // Thursday 26 November 2026 to Monday 30 November: Friday and Monday.
    expect(workingDaysBetween("2026-11-26", "2026-11-30")).toBe(2);
    expect(workingDaysBetween("2026-11-27", "2026-11-28")).toBe(0);
    expect(workingDaysBetween("2026-11-30", "2026-11-26")).toBe(0);
    expect(daysBetween("2026-11-30", "2026-12-02")).toBe(2);
  });

  it("puts the deadline 10 working days after the day received", () => {
    // Monday 23 November 2026 → Monday 7 December.
    expect(addWorkingDays("2026-11-23", 10)).toBe("2026-12-07");
    // Friday 27 November → Friday 11 December.
    expect(addWorkingDays("2026-11-27", 10)).toBe("2026-12-11");
  });

  it("says how many working days are left", () => {
    // Thursday 3 December, due Monday 7 December: Friday and Monday.
    expect(dueLabel(request(), "2026-12-03")).toBe("осталось 2 рабочих дня");
    expect(dueLabel(request(), "2026-12-04")).toBe("остался 1 рабочий день");
    expect(dueLabel(request(), "2026-11-23")).toBe("осталось 10 рабочих дней");
    // Wednesday 2 December: Thursday, Friday, Monday.
    expect(dueLabel(request(), "2026-12-02")).toBe("осталось 3 рабочих дня");
    expect(dueLabel(request(), "2026-12-07")).toBe("срок истекает сегодня");
  });

  it("says how late an overdue request is", () => {
    expect(dueLabel(request({ overdue: true }), "2026-12-09")).toBe("просрочен на 2 дня");
    expect(dueLabel(request({ overdue: true }), "2026-12-08")).toBe("просрочен на 1 день");
    expect(dueLabel(request({ overdue: true }), "2026-12-12")).toBe("просрочен на 5 дней");
    // The server's flag wins over a browser whose clock is behind.
    expect(dueLabel(request({ overdue: true }), "2026-12-07")).toBe("просрочен на 1 день");
    // An answered request has no deadline.
    expect(
      dueLabel(request({ answeredAt: "2026-12-01T10:00:00Z", outcome: "erased" }), "2026-12-09"),
    ).toBeNull();
  });

  it("spells days and the closing", () => {
    expect(dayText("2026-12-07")).toBe("7 декабря 2026 г.");
    expect(dayText("soon")).toBe("soon");
    expect(closedText(request({ answeredAt: "2026-12-01T21:30:00Z", outcome: "erased" }))).toBe(
      "Закрыт 2 декабря 2026 г.: Данные удалены",
    );
    expect(closedText(request())).toBe("");
  });

  it("keeps the open requests", () => {
    const list = [request({ id: 1 }), request({ id: 2, answeredAt: "2026-12-01T10:00:00Z" })];
    expect(openRequests(list).map((r) => r.id)).toEqual([1]);
  });
});

describe("the subject, shown and masked", () => {
  it("formats and masks a phone and an address", () => {
    expect(formatPhone("+79211234567")).toBe("+7 921 123-45-67");
    expect(formatPhone("12")).toBe("12");
    expect(maskPhone("+79211234567")).toBe("+7 *** ***-45-67");
    expect(maskEmail("anna@example.ru")).toBe("a***@example.ru");
    expect(maskEmail("nonsense")).toBe("***");
  });

  it("masks an open request's subject and keeps an answered one's as the server masked it", () => {
    expect(maskedSubject(request())).toBe("+7 *** ***-45-67, a***@example.ru");
    expect(maskedSubject(request({ email: null }))).toBe("+7 *** ***-45-67");
    expect(
      maskedSubject(request({ phone: null, email: null, subject: "+7 *** ***-45-67, a***@b.ru" })),
    ).toBe("+7 *** ***-45-67, a***@b.ru");
  });

  it("shows an open request's phone as a person reads it, an answered one as masked", () => {
    expect(subjectText(request({ subject: "+79211234567, anna@example.ru" }))).toBe(
      "+7 921 123-45-67, anna@example.ru",
    );
    expect(subjectText(request({ email: null }))).toBe("+7 921 123-45-67");
    expect(
      subjectText(request({ phone: null, email: null, subject: "+7 *** ***-45-67, a***@b.ru" })),
    ).toBe("+7 *** ***-45-67, a***@b.ru");
  });

  it("fills the search from a request and tells the same person", () => {
    expect(subjectOf(request())).toEqual({ phone: "+7 921 123-45-67", email: "anna@example.ru" });
    expect(subjectOf(request({ email: null }))).toEqual({ phone: "+7 921 123-45-67", email: "" });
    expect(
      sameSubject(
        { phone: "8 (921) 123-45-67", email: " Anna@Example.ru " },
        { phone: "+7 921 123-45-67", email: "anna@example.ru" },
      ),
    ).toBe(true);
    expect(
      sameSubject(
        { phone: "", email: "anna@example.ru" },
        { phone: "+7 921 123-45-67", email: "anna@example.ru" },
      ),
    ).toBe(false);
  });
});

describe("what the forms send", () => {
  it("leaves blank fields out", () => {
    expect(subjectBody({ phone: "  ", email: " a@b.ru " })).toEqual({ email: "a@b.ru" });
    expect(subjectBody({ phone: "+7 921 123-45-67", email: "" })).toEqual({
      phone: "+7 921 123-45-67",
    });
    expect(subjectBody({ phone: "", email: "" })).toEqual({});
  });

  it("registers a request with today's date unless another is given", () => {
    const form = requestFormDefaults("2026-11-26");
    expect(form).toEqual({
      kind: "access",
      phone: "",
      email: "",
      receivedOn: "2026-11-26",
      note: "",
    });
    expect(newRequestBody({ ...form, kind: "erase", phone: "89211234567" })).toEqual({
      kind: "erase",
      phone: "89211234567",
      receivedOn: "2026-11-26",
    });
    expect(
      newRequestBody({ ...form, email: "a@b.ru", receivedOn: " ", note: " по почте " }),
    ).toEqual({ kind: "access", email: "a@b.ru", note: "по почте" });
  });

  it("closes a request with its note only when one is given", () => {
    expect(answerBody({ outcome: "provided", note: "  " })).toEqual({ outcome: "provided" });
    expect(answerBody({ outcome: "refused", note: " не подтвердил личность " })).toEqual({
      outcome: "refused",
      note: "не подтвердил личность",
    });
  });

  it("exports and erases the subject searched, with the request when there is one", () => {
    const s = { phone: "+7 921 123-45-67", email: "" };
    expect(exportBody(s, "html")).toEqual({ phone: "+7 921 123-45-67", format: "html" });
    expect(eraseBody(s, null)).toEqual({ phone: "+7 921 123-45-67" });
    expect(eraseBody(s, 5)).toEqual({ phone: "+7 921 123-45-67", requestId: 5 });
  });
});

describe("the forms' checks, in the server's words", () => {
  const phone = (value: string, email = "") =>
    subjectRules.phone.validate(value, { phone: value, email });
  it("wants a phone or an address, each well formed", () => {
    expect(phone("", "")).toBe(SUBJECT_REQUIRED);
    expect(phone("", "a@b.ru")).toBe(true);
    expect(phone("+7 921 123-45-67")).toBe(true);
    // The phone's spelling is the server's to judge.
    expect(phone("12345")).toBe(true);
    expect(subjectRules.email.validate("a@b")).toBe(BAD_EMAIL);
    expect(subjectRules.email.validate("")).toBe(true);
    expect(subjectRules.email.validate("a@b.ru")).toBe(true);
  });

  it("takes a received date from a year ago up to today", () => {
    expect(receivedOnError("2026-11-26", "2026-11-26")).toBeNull();
    expect(receivedOnError("2025-11-26", "2026-11-26")).toBeNull();
    expect(receivedOnError("", "2026-11-26")).toBeNull();
    expect(receivedOnError("2026-11-27", "2026-11-26")).toBe(RECEIVED_ON_RANGE);
    expect(receivedOnError("2025-11-25", "2026-11-26")).toBe(RECEIVED_ON_RANGE);
    expect(receivedOnError("вчера", "2026-11-26")).toBe(RECEIVED_ON_RANGE);
  });

  it("wants a reason for a refusal, and a note of at most 2000 characters", () => {
    expect(answerErrors({ outcome: "refused", note: " " })).toEqual({
      note: REFUSAL_NOTE_REQUIRED,
    });
    expect(answerErrors({ outcome: "refused", note: "нет доверенности" })).toEqual({});
    expect(answerErrors({ outcome: "provided", note: "" })).toEqual({});
    expect(answerErrors({ outcome: "", note: "" })).toEqual({ outcome: "Выберите итог" });
    expect(answerErrors({ outcome: "provided", note: "я".repeat(2001) })).toEqual({
      note: NOTE_TOO_LONG,
    });
    expect(noteRule.validate("я".repeat(2000))).toBe(true);
    expect(noteRule.validate("я".repeat(2001))).toBe(NOTE_TOO_LONG);
  });
});

describe("what was found and erased", () => {
  it("says when nothing is held", () => {
    expect(nothingFound(EMPTY)).toBe(true);
    expect(foundSummary(EMPTY)).toBe(NOTHING_FOUND);
  });

  it("counts what was found", () => {
    const data = {
      ...EMPTY,
      leads: [{}, {}],
      deliveries: [{}, {}, {}],
      audit: [{}],
    } as unknown as PersonData;
    expect(nothingFound(data)).toBe(false);
    expect(foundSummary(data)).toBe(
      "Найдено: заявок 2, подписок 0, уведомлений 3, записей журнала 1, комментариев 0",
    );
    expect(eraseWarning(data)).toBe(
      "Будут удалены: имя, телефон, e-mail и сообщения в 2 заявках (останутся только тип, статус и даты), содержимое 3 уведомлений; в журнале имя, телефон и адрес будут заменены на «[удалено]».",
    );
    // No zeros: «0 комментариев», «0 подписок» are not listed.
    expect(eraseWarning(data)).not.toMatch(/\b0 /);
    expect(eraseWarning({ ...data, leads: [{}] } as unknown as PersonData)).toContain("в 1 заявке");
  });

  it("ends a sentence after a date once: «г.», not «г..»", () => {
    expect(sentence(dayText("2026-11-26"))).toBe("26 ноября 2026 г.");
    expect(sentence("Запрос")).toBe("Запрос.");
  });

  it("sums up an erasure", () => {
    expect(
      erasedSummary({ leads: 1, comments: 2, subscriptions: 1, deliveries: 4, auditEntries: 3 }),
    ).toBe("Удалено: заявок 1, комментариев 2, подписок 1, уведомлений 4, записей журнала 3");
    expect(
      erasedSummary({ leads: 1, comments: 0, subscriptions: 0, deliveries: 2, auditEntries: 0 }),
    ).toBe("Удалено: заявок 1, уведомлений 2");
    expect(
      erasedSummary({ leads: 0, comments: 0, subscriptions: 0, deliveries: 0, auditEntries: 0 }),
    ).toBe("Ничего не удалено: данных об этом человеке нет");
  });

  it("names the export's file from the answer's header", () => {
    expect(
      exportFileName('attachment; filename="personal-data-2026-11-26.json"', "json", "2026-11-27"),
    ).toBe("personal-data-2026-11-26.json");
    expect(
      exportFileName("attachment; filename*=UTF-8''personal-data-2026-11-26.html", "html", "x"),
    ).toBe("personal-data-2026-11-26.html");
    expect(exportFileName(null, "html", "2026-11-26")).toBe("personal-data-2026-11-26.html");
    expect(exportFileName('attachment; filename="../etc/passwd"', "json", "2026-11-26")).toBe(
      "personal-data-2026-11-26.json",
    );
  });
});

describe("retention", () => {
  it("says what is due", () => {
    expect(retentionDueText({ subjects: 2, leads: 3, subscriptions: 1 })).toBe(
      "Сейчас к удалению: 2 человека (заявок 3, подписок 1)",
    );
    expect(retentionDueText({ subjects: 5, leads: 5, subscriptions: 0 })).toBe(
      "Сейчас к удалению: 5 человек (заявок 5, подписок 0)",
    );
    expect(retentionDueText({ subjects: 0, leads: 0, subscriptions: 0 })).toMatch(/никого/);
  });

  it("says what a run did", () => {
    expect(retentionRunText({ act: null })).toMatch(/^Удалять было нечего/);
    const act = {
      id: 4,
      at: "2026-11-26T10:00:00Z",
      reason: "retention",
      reasonText: "Истёк срок хранения: 3 года после последнего обращения",
      subjects: 1,
      leads: 2,
      subscriptions: 0,
      deliveries: 3,
      auditEntries: 1,
      categories: ["фамилия, имя"],
      by: "",
    } as const;
    expect(retentionRunText({ act: { ...act, categories: [...act.categories] } })).toBe(
      "Удалены данные 1 человека (заявок 2, подписок 0). Составлен акт № 4.",
    );
    expect(actCountsText(act)).toBe(
      "1 человек; заявок 2, подписок 0, уведомлений 3, записей журнала 1",
    );
    expect(actByText(act)).toBe("Удалено автоматически по сроку хранения");
    expect(actByText({ ...act, reason: "withdrawal" })).toBe("Удалено по ссылке из письма");
    expect(actByText({ ...act, reason: "request", by: "demo" })).toBe("Удалил: demo");
  });

  it("spells the periods", () => {
    expect(retentionPeriodText(3, 6)).toBe(
      "Данные хранятся 3 года после последнего обращения человека; отменённые заявки — 6 месяцев после закрытия.",
    );
    expect(retentionPeriodText(1, 1)).toContain("1 год после");
    expect(retentionPeriodText(5, 2)).toContain("5 лет после");
    expect(retentionPeriodText(5, 2)).toContain("2 месяца после");
  });

  it("fills the settings' section with the defaults and checks its ranges", () => {
    expect(retentionForm({})).toEqual({ retentionYears: "3", cancelledRetentionMonths: "6" });
    expect(retentionForm({ retentionYears: 5, cancelledRetentionMonths: 12 })).toEqual({
      retentionYears: "5",
      cancelledRetentionMonths: "12",
    });
    expect(retentionRules.retentionYears.validate("10")).toBe(true);
    expect(retentionRules.retentionYears.validate("11")).toBe(RETENTION_YEARS_MESSAGE);
    expect(retentionRules.retentionYears.validate("0")).toBe(RETENTION_YEARS_MESSAGE);
    expect(retentionRules.retentionYears.validate("2.5")).toBe(RETENTION_YEARS_MESSAGE);
    expect(retentionRules.cancelledRetentionMonths.validate("36")).toBe(true);
    expect(retentionRules.cancelledRetentionMonths.validate("37")).toBe(CANCELLED_MONTHS_MESSAGE);
    expect(retentionPatch({ retentionYears: " 4 ", cancelledRetentionMonths: "9" })).toEqual({
      retentionYears: 4,
      cancelledRetentionMonths: 9,
    });
  });
});
