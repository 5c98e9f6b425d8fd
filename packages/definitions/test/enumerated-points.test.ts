import { describe, expect, it } from "@jest/globals";
import { extractDefinitions } from "@hierdoc/definitions";
import { fixture } from "./fixtures.js";

/** GDPR Article 4 points (16) and (17) as the markdown conversion has them (text shortened). */
const MARKDOWN = `### Article 4 — Definitions

For the purposes of this Regulation:

(15) ‘data concerning health’ means personal data related to the physical or mental health of a natural person;

(16) ‘main establishment’ means:

(a) as regards a controller with establishments in more than one Member State, the place of its central administration in the Union;

(b) as regards a processor with establishments in more than one Member State, the place of its central administration in the Union;

(17) ‘representative’ means a natural or legal person established in the Union who represents the controller;
`;

/** The same points as the EUR-Lex plain-text conversion has them: each label on a line of its own. */
const PLAIN = `Article 4

Definitions

(16)

‘main establishment’ means:

(a)

as regards a controller with establishments in more than one Member State, the place of its central administration in the Union;

(b)

as regards a processor with establishments in more than one Member State, the place of its central administration in the Union;

(17)

‘representative’ means a natural or legal person established in the Union who represents the controller;
`;

describe("a definition ending with ':' takes the enumerated points that follow", () => {
  it("GDPR Article 4(16) 'main establishment' keeps points (a) and (b) and stops before point (17)", () => {
    const f = fixture(MARKDOWN, [{ id: "Article 4", title: "Article 4 — Definitions", level: 3 }]);
    const defs = extractDefinitions(f.doc, f.sections, f.chunks);
    const main = defs.find((d) => d.term === "main establishment");
    expect(main?.sourceSection).toBe("Article 4(16)");
    expect(main?.definitionText).toMatch(/^‘main establishment’ means:\s+\(a\) as regards a controller/);
    expect(main?.definitionText).toContain("(b) as regards a processor");
    expect(main?.definitionText).toMatch(/in the Union;$/);
    expect(main?.definitionText).not.toContain("representative");
    expect(f.doc.text.slice(main!.start, main!.end)).toBe(main!.definitionText);
    const rep = defs.find((d) => d.term === "representative");
    expect(rep?.definitionText).toBe("‘representative’ means a natural or legal person established in the Union who represents the controller;");
    const health = defs.find((d) => d.term === "data concerning health");
    expect(health?.definitionText).not.toContain("main establishment");
  });

  it("reads labels on lines of their own in a plain-text conversion", () => {
    const f = fixture(PLAIN, [{ id: "Article 4", title: "Article 4", level: 1 }], { format: "text", sourcePath: "gdpr.txt" });
    const defs = extractDefinitions(f.doc, f.sections, f.chunks);
    const main = defs.find((d) => d.term === "main establishment");
    expect(main?.definitionText).toMatch(/^‘main establishment’ means:\s+\(a\)\s+as regards a controller/);
    expect(main?.definitionText).toMatch(/\(b\)\s+as regards a processor[^]*in the Union;$/);
    expect(main?.definitionText).not.toContain("(17)");
    expect(f.doc.text.slice(main!.start, main!.end)).toBe(main!.definitionText);
  });

  it("is bounded: at most 26 points and 4000 characters are taken", () => {
    const points = Array.from({ length: 30 }, (_, i) => `(${String.fromCharCode(97 + (i % 26))}) point ${i} ${"word ".repeat(40)}`);
    const text = `### Article 4 — Definitions\n\n(1) ‘long thing’ means:\n\n${points.join("\n\n")}\n`;
    const f = fixture(text, [{ id: "Article 4", title: "Article 4 — Definitions", level: 3 }]);
    const main = extractDefinitions(f.doc, f.sections, f.chunks).find((d) => d.term === "long thing");
    expect(main).toBeDefined();
    expect(main!.definitionText.length).toBeLessThanOrEqual(4000);
    expect(main!.definitionText).toContain("(a) point 0");
    expect(main!.definitionText).not.toContain("point 26");
  });

  it("leaves a colon-ended definition alone when no enumerated point follows", () => {
    const text = `### Article 4 — Definitions\n\n(1) ‘thing’ means:\n\nSome unrelated paragraph.\n`;
    const f = fixture(text, [{ id: "Article 4", title: "Article 4 — Definitions", level: 3 }]);
    const main = extractDefinitions(f.doc, f.sections, f.chunks).find((d) => d.term === "thing");
    expect(main?.definitionText).toBe("‘thing’ means:");
  });
});
