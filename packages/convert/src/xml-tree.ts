import { XMLParser, XMLValidator } from "fast-xml-parser";
import { fileError } from "./errors.js";

/** An element of a parsed XML document: local name (namespace prefix removed), attributes, children. */
export interface XmlElement {
  name: string;
  /** Qualified name as written (`x:ref`). */
  qname: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

/** A node of a parsed XML document: an element or a text string. */
export type XmlNode = XmlElement | string;

/** Limits of {@link parseXml}. */
export interface XmlLimits {
  /** Most internal entity declarations accepted in a DOCTYPE (default 256). */
  maxEntities?: number;
  /** Longest replacement text of one entity, in characters (default 4096). */
  maxEntityLength?: number;
  /** Most characters entity substitution may add to the document (default 16 Mi). */
  maxExpansion?: number;
  /** Deepest element nesting accepted (default 256). */
  maxDepth?: number;
}

const XML_BUILTIN = new Set(["lt", "gt", "amp", "quot", "apos"]);

/**
 * Reads the DOCTYPE internal subset: only internal general entities whose replacement text holds no entity
 * references (character references are fine). Nested or external entities are refused, so expansion is
 * linear in the input (no "billion laughs").
 */
function readDoctype(path: string, xml: string, limits: Required<XmlLimits>): { body: string; entities: Map<string, string> } {
  const entities = new Map<string, string>();
  const start = xml.search(/<!DOCTYPE\b/);
  if (start === -1) return { body: xml, entities };
  const root = xml.search(/<[A-Za-z_]/);
  if (root !== -1 && root < start) return { body: xml, entities };
  let i = start + 9;
  let subsetEnd = -1;
  let end = -1;
  let quote: string | null = null;
  let inSubset = false;
  for (; i < xml.length; i++) {
    const c = xml[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[") inSubset = true;
    else if (c === "]" && inSubset) {
      inSubset = false;
      subsetEnd = i;
    } else if (c === ">" && !inSubset) {
      end = i;
      break;
    }
  }
  if (end === -1) throw fileError("E_PARSE", path, "unclosed DOCTYPE declaration");
  const decl = xml.slice(start, subsetEnd === -1 ? end : subsetEnd);
  const re = /<!ENTITY\s+(%\s+)?([A-Za-z_][\w.-]*)\s+(?:(SYSTEM|PUBLIC)\b[^>]*|"([^"]*)"|'([^']*)')\s*>/g;
  let m: RegExpExecArray | null;
  let count = 0;
  while ((m = re.exec(decl)) !== null) {
    const [, param, name, external] = m;
    const value = m[4] ?? m[5] ?? "";
    if (param) throw fileError("E_PARSE", path, `parameter entity %${name} is not supported`);
    if (external) throw fileError("E_PARSE", path, `external entity &${name}; is not supported (no file or network access)`);
    if (++count > limits.maxEntities) throw fileError("E_PARSE", path, `more than ${limits.maxEntities} entity declarations`);
    if (/&(?!#)/.test(value)) {
      throw fileError("E_PARSE", path, `entity &${name}; refers to other entities; nested entity expansion is refused`, {
        details: { entity: name },
      });
    }
    if (value.length > limits.maxEntityLength) {
      throw fileError("E_PARSE", path, `entity &${name}; is longer than ${limits.maxEntityLength} characters`);
    }
    entities.set(name, value);
  }
  if (/<!ENTITY\b/.test(decl.replace(re, ""))) throw fileError("E_PARSE", path, "malformed entity declaration in DOCTYPE");
  return { body: xml.slice(0, start) + xml.slice(end + 1), entities };
}

function substituteEntities(path: string, body: string, entities: Map<string, string>, maxExpansion: number): string {
  if (entities.size === 0) return body;
  let added = 0;
  return body.replace(/&([A-Za-z_][\w.-]*);/g, (whole, name: string) => {
    if (XML_BUILTIN.has(name)) return whole;
    const value = entities.get(name);
    if (value === undefined) return whole;
    added += value.length;
    if (added > maxExpansion) {
      throw fileError("E_PARSE", path, `entity expansion exceeds ${maxExpansion} characters`);
    }
    return value;
  });
}

type RawNode = Record<string, unknown>;

function toTree(raw: RawNode[], depth: number, maxDepth: number, path: string): XmlNode[] {
  if (depth > maxDepth) throw fileError("E_PARSE", path, `elements nested deeper than ${maxDepth}`);
  const out: XmlNode[] = [];
  for (const node of raw) {
    if ("#text" in node) {
      out.push(String(node["#text"]));
      continue;
    }
    const qname = Object.keys(node).find((k) => k !== ":@");
    if (qname === undefined || qname.startsWith("?") || qname.startsWith("!")) continue;
    const attrs: Record<string, string> = {};
    const rawAttrs = node[":@"] as Record<string, unknown> | undefined;
    if (rawAttrs) for (const [k, v] of Object.entries(rawAttrs)) attrs[k] = String(v);
    const colon = qname.indexOf(":");
    out.push({
      name: colon === -1 ? qname : qname.slice(colon + 1),
      qname,
      attrs,
      children: toTree(node[qname] as RawNode[], depth + 1, maxDepth, path),
    });
  }
  return out;
}

/**
 * Parses XML safely into a small ordered tree: well-formedness checked first (E_PARSE with line and column),
 * DOCTYPE entities substituted only when flat (see limits), no external resources, bounded depth.
 *
 * @throws HierdocError E_PARSE naming `path`.
 */
export function parseXml(path: string, xml: string, limits: XmlLimits = {}): XmlElement {
  const l: Required<XmlLimits> = {
    maxEntities: limits.maxEntities ?? 256,
    maxEntityLength: limits.maxEntityLength ?? 4096,
    maxExpansion: limits.maxExpansion ?? 16 * 1024 * 1024,
    maxDepth: limits.maxDepth ?? 256,
  };
  const { body, entities } = readDoctype(path, xml, l);
  const text = substituteEntities(path, body, entities, l.maxExpansion);
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw fileError("E_PARSE", path, `not well-formed XML at line ${line}, column ${col}: ${msg}`, {
      details: { line, column: col },
    });
  }
  let raw: RawNode[];
  try {
    raw = new XMLParser({
      preserveOrder: true,
      ignoreAttributes: false,
      attributeNamePrefix: "",
      trimValues: false,
      parseTagValue: false,
      parseAttributeValue: false,
      ignorePiTags: true,
      allowBooleanAttributes: true,
      processEntities: true,
      htmlEntities: true,
      maxNestedTags: l.maxDepth,
    }).parse(text) as RawNode[];
  } catch (cause) {
    if (cause instanceof Error && /nested tags/.test(cause.message)) {
      throw fileError("E_PARSE", path, `elements nested deeper than ${l.maxDepth}`, { cause });
    }
    throw fileError("E_PARSE", path, `cannot parse XML: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
  const root = toTree(raw, 0, l.maxDepth, path).find((n): n is XmlElement => typeof n !== "string");
  if (!root) throw fileError("E_PARSE", path, "no root element");
  return root;
}

/** Child elements of `el`, optionally only those with local name `name`. */
export function childElements(el: XmlElement, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) if (typeof c !== "string" && (name === undefined || c.name === name)) out.push(c);
  return out;
}

/** First child element named `name`, or undefined. */
export function firstChild(el: XmlElement, name: string): XmlElement | undefined {
  for (const c of el.children) if (typeof c !== "string" && c.name === name) return c;
  return undefined;
}

/** Whitespace-normalised text content of a node (all descendant text, in order). */
export function textOf(node: XmlNode | undefined, skip?: ReadonlySet<string>): string {
  if (node === undefined) return "";
  const parts: string[] = [];
  const walk = (n: XmlNode): void => {
    if (typeof n === "string") parts.push(n);
    else if (!skip?.has(n.name)) for (const c of n.children) walk(c);
  };
  walk(node);
  return collapse(parts.join(""));
}

/** Collapses runs of whitespace to one space and trims. */
export function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
