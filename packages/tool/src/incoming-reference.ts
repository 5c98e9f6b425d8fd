/** A citation of a section (or of a unit inside it) found in another section; see {@link HierarchicalDocumentTool.refs}. */
export interface IncomingReference {
  /** The citing section. */
  fromSectionId: string;
  sourcePath: string;
  /** The citation exactly as written ("point (a) of Article 6(1)"). */
  text: string;
  /** The unit the citation resolved to: the section itself or a unit inside it ("Article 6(1)"). */
  targetSectionId: string;
}

/** True when `unitId` names a unit inside `sectionId`: "Article 6(1)(a)" or "Article 6.2" in "Article 6", not "Article 60". */
export function isUnitOf(unitId: string, sectionId: string): boolean {
  if (unitId === sectionId) return true;
  return unitId.startsWith(sectionId) && /^\s?[(.]/.test(unitId.slice(sectionId.length));
}
