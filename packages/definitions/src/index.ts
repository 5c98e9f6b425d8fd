export { normalizeTerm, singularKey, wordTokens, type WordToken } from "./normalize.js";
export { TermIndex } from "./term-index.js";
export { extractDefinitions, type ExtractedDefinition } from "./extract-definitions.js";
export { matchDefinitions, isGlossaryHeader, isIdLike, type DefinitionMatch, type ParagraphContext } from "./definition-patterns.js";
export { matchTechnicalTerms } from "./technical-terms.js";
export { extractCrossReferences, type LocatedCrossReference } from "./extract-cross-references.js";
export { SectionResolver, sectionKey, type ResolverEntry, type SectionResolverState } from "./section-resolver.js";
export { DocumentMap, paragraphs, isDefinitionsTitle, type Paragraph } from "./document-map.js";
export { codeTitleName, documentCodeTitle, parseCodeTitle, type CodeTitle, type CodeTitleEvidence } from "./code-title.js";
