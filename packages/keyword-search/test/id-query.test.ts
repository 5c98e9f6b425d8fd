import { describe, expect, it } from "@jest/globals";
import { isIdLookupQuery } from "@hierdoc/keyword-search";

describe("isIdLookupQuery", () => {
  it("accepts queries that are essentially a section id", () => {
    for (const q of ["Article 17", "§ 478.11", "Section 203(a)(1)", "s. 203(a)(1)", "Art. 4(11)", "9.3.1", "what does Article 17(3)(b) exempt?", "show me Rule 2.14", "2.1.1.(1)"]) {
      expect([q, isIdLookupQuery(q)]).toEqual([q, true]);
    }
  });

  it("rejects questions that merely mention an id, and queries without one", () => {
    for (const q of [
      "Under Rule 6.2.1(a)(i), what must an employee ensure when providing a written notice about restrictions?",
      "According to GEN 3.3, which type of entity is permitted to take over managerial functions for a Captive Insurer?",
      "right to erasure",
      "personal data breach notification",
    ]) {
      expect([q, isIdLookupQuery(q)]).toEqual([q, false]);
    }
  });
});
