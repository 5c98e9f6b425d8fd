import { StandardAnalyzer, createAnalyzer } from "@hierdoc/keyword-search";

describe("StandardAnalyzer", () => {
  const plain = new StandardAnalyzer({ stem: false, stopWords: false });

  it("lowercases Unicode word tokens", () => {
    expect(plain.analyze("Données Personnelles, ÜBER straße 42").tokens).toEqual(["données", "personnelles", "über", "straße", "42"]);
  });

  it("keeps section-id tokens whole and also split", () => {
    const { tokens } = plain.analyze("see 4.2, § 478.11 and Article 6(1) or 2.1.1.(1).");
    for (const t of ["4.2", "478.11", "6(1)", "2.1.1(1)"]) expect(tokens).toContain(t);
    for (const t of ["4", "2", "478", "11", "6", "1"]) expect(tokens).toContain(t);
    expect(tokens).not.toContain("2.1.1.");
  });

  it("normalises '2.1.1.(1)' and '2.1.1(1)' to the same whole token", () => {
    expect(plain.analyze("2.1.1.(1)").tokens[0]).toBe(plain.analyze("2.1.1(1)").tokens[0]);
  });

  it("splits identifiers (camelCase, snake_case, dotted.names) and keeps them whole", () => {
    const { tokens } = plain.analyze("call getUserName on http_client.send_request via HTTPServer");
    expect(tokens).toEqual(expect.arrayContaining(["getusername", "get", "user", "name"]));
    expect(tokens).toEqual(expect.arrayContaining(["http_client.send_request", "http", "client", "send", "request"]));
    expect(tokens).toEqual(expect.arrayContaining(["httpserver", "http", "server"]));
  });

  it("counts one length unit per word, not per extra sub-token", () => {
    expect(plain.analyze("getUserName 203(a)(1) plain").length).toBe(3);
  });

  it("stems English words and drops Lucene's English stop words by default", () => {
    const a = createAnalyzer({ kind: "standard" });
    expect(a.analyze("The controllers are processing the requests").tokens).toEqual(["control", "process", "request"]);
    expect(a.analyze("controller").tokens).toEqual(a.analyze("controllers").tokens);
  });
});
