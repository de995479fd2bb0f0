/**
 * A small strict XML reader, enough for XSPF: elements with their line, text, CDATA, comments and
 * the five predefined and numeric entities. A DOCTYPE is refused: it is the only way to define
 * entities, so no expansion (billion laughs) or external fetch can happen. Iterative, with a depth
 * bound, so deep nesting cannot overflow the stack. Attributes are checked but not kept: XSPF puts
 * nothing we read in them.
 */
import { FileSourceError } from "./errors.js";
import { MAX_XML_DEPTH } from "./limits.js";

export interface XmlElement {
  /** Without a namespace prefix. */
  name: string;
  line: number;
  children: XmlElement[];
  text: string;
}

const NAME = /[A-Za-z_][\w.:-]*/y;
const ATTRIBUTE = /\s+[A-Za-z_][\w.:-]*\s*=\s*("[^"<]*"|'[^'<]*')/y;
const TAG_END = /\s*(\/?)>/y;
const ENTITY = /&(?:#x([0-9A-Fa-f]{1,6})|#(\d{1,7})|(lt|gt|amp|quot|apos));/y;
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Tracks the line of increasing offsets in one pass. */
class Lines {
  private at = 0;
  private line = 1;
  constructor(private readonly text: string) {}

  of(offset: number): number {
    for (
      let i = this.text.indexOf("\n", this.at);
      i !== -1 && i < offset;
      i = this.text.indexOf("\n", i + 1)
    ) {
      this.line++;
    }
    this.at = Math.max(this.at, offset);
    return this.line;
  }
}

function decodeEntities(raw: string, fail: (message: string, offset: number) => never, base: number): string {
  if (!raw.includes("&")) return raw;
  let out = "";
  let from = 0;
  for (let amp = raw.indexOf("&"); amp !== -1; amp = raw.indexOf("&", from)) {
    ENTITY.lastIndex = amp;
    const m = ENTITY.exec(raw);
    if (!m)
      fail(
        "an unknown or malformed entity (only &lt; &gt; &amp; &quot; &apos; and &#…; are read)",
        base + amp,
      );
    const code = m[1] !== undefined ? Number.parseInt(m[1], 16) : m[2] !== undefined ? Number(m[2]) : -1;
    if (code === 0 || code > 0x10ffff) fail("a character reference out of range", base + amp);
    out += raw.slice(from, amp) + (code === -1 ? NAMED[m[3]!] : String.fromCodePoint(code));
    from = amp + m[0].length;
  }
  return out + raw.slice(from);
}

interface Parser {
  text: string;
  stack: XmlElement[];
  root: XmlElement | null;
  lines: Lines;
  fail: (message: string, offset: number) => never;
}

function localName(qualified: string): string {
  return qualified.slice(qualified.indexOf(":") + 1);
}

function skipPast(p: Parser, from: number, end: string, what: string): number {
  const at = p.text.indexOf(end, from);
  if (at === -1) p.fail(`${what} is never closed`, from);
  return at + end.length;
}

function openTag(p: Parser, lt: number): number {
  NAME.lastIndex = lt + 1;
  const name = NAME.exec(p.text);
  if (!name) p.fail("a malformed tag", lt);
  let i = NAME.lastIndex;
  for (ATTRIBUTE.lastIndex = i; ATTRIBUTE.exec(p.text); ATTRIBUTE.lastIndex = i) i = ATTRIBUTE.lastIndex;
  TAG_END.lastIndex = i;
  const end = TAG_END.exec(p.text);
  if (!end) p.fail(`a malformed tag <${name![0]}>`, lt);
  const element: XmlElement = { name: localName(name![0]), line: p.lines.of(lt), children: [], text: "" };
  const parent = p.stack[p.stack.length - 1];
  if (parent) parent.children.push(element);
  else if (p.root) p.fail("more than one root element", lt);
  else p.root = element;
  if (end![1] !== "/") p.stack.push(element);
  if (p.stack.length > MAX_XML_DEPTH) p.fail(`nested more than ${MAX_XML_DEPTH} levels deep`, lt);
  return TAG_END.lastIndex;
}

function closeTag(p: Parser, lt: number): number {
  NAME.lastIndex = lt + 2;
  const name = NAME.exec(p.text)?.[0] ?? "";
  TAG_END.lastIndex = lt + 2 + name.length;
  const end = TAG_END.exec(p.text);
  const open = p.stack.pop();
  if (!end || end[1] === "/" || open?.name !== localName(name)) {
    p.fail(`</${name}> does not close ${open ? `<${open.name}>` : "any open element"}`, lt);
  }
  return TAG_END.lastIndex;
}

/** One piece of markup at `lt`; returns where the text after it starts. */
function markup(p: Parser, lt: number): number {
  const { text } = p;
  if (text.startsWith("<?", lt)) return skipPast(p, lt, "?>", "a processing instruction");
  if (text.startsWith("<!--", lt)) return skipPast(p, lt + 4, "-->", "a comment");
  if (text.startsWith("<![CDATA[", lt)) {
    const end = skipPast(p, lt, "]]>", "a CDATA section");
    const top = p.stack[p.stack.length - 1];
    if (!top) p.fail("CDATA outside the root element", lt);
    top!.text += text.slice(lt + 9, end - 3);
    return end;
  }
  if (text.startsWith("<!", lt)) {
    p.fail(
      "a DOCTYPE or other declaration is not allowed (it could define entities that expand without bound)",
      lt,
    );
  }
  return text.startsWith("</", lt) ? closeTag(p, lt) : openTag(p, lt);
}

/** Parses the whole document; any malformation refuses the file (an XML reader may not guess). */
export function parseXml(text: string): XmlElement {
  const lines = new Lines(text);
  const fail = (message: string, offset: number): never => {
    throw new FileSourceError(`not well-formed XML: ${message}`, lines.of(offset));
  };
  const p: Parser = { text, stack: [], root: null, lines, fail };
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    const chunk = text.slice(i, lt === -1 ? text.length : lt);
    const top = p.stack[p.stack.length - 1];
    if (top) top.text += decodeEntities(chunk, fail, i);
    else if (chunk.trim() !== "") fail("text outside the root element", i);
    if (lt === -1) break;
    i = markup(p, lt);
  }
  if (p.stack.length > 0) fail(`<${p.stack[p.stack.length - 1]!.name}> is never closed`, text.length);
  if (!p.root) fail("no root element", 0);
  return p.root!;
}
