/**
 * The pages' building blocks: the html`` template, and the one layout every page shares (landmarks,
 * a viewport for phones, colours with enough contrast, no script). Pure: data in, text out.
 *
 * Every value put into html`` is escaped unless it is itself markup made by html`` (or raw()), so
 * a title from a recipe or the service cannot come out as markup by an oversight: a forgotten
 * html`` on a nested template shows its tags as text, it never leaves a value raw, and markup is
 * never escaped twice.
 */

/** Markup: text that is already HTML and goes into a page as it is. */
export class Html {
  constructor(readonly text: string) {}
  /**
   * Markup put into a plain `template` would be escaped again by the html`` around it: refused
   * loudly (every view is rendered by the tests) rather than shown as entities.
   */
  toString(): string {
    throw new Error("markup in a plain template literal: write html`` around it");
  }
}

/** A value made safe for HTML text and for a quoted attribute. */
function escapeText(value: unknown): string {
  return String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** One interpolated value as markup: Html as it is, a list item by item, anything else escaped. */
function markup(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(markup).join("");
  return escapeText(value);
}

/** Markup from a template: each `${value}` escaped unless it is Html. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += markup(values[i]) + (strings[i + 1] ?? "");
  return new Html(out);
}

/** Pieces of markup with `separator` (escaped unless Html) between them. */
export function join(parts: readonly Html[], separator: Html | string): Html {
  return new Html(parts.map((p) => p.text).join(markup(separator)));
}

/** Text that is markup by construction (a constant of this module's), marked so. */
export function raw(text: string): Html {
  return new Html(text);
}

/**
 * A path segment, for links built from ids. encodeURIComponent leaves no character that means
 * anything inside a double-quoted attribute or text, so it is markup as it is.
 */
export function seg(value: string | number): Html {
  return new Html(encodeURIComponent(String(value)));
}

// Text #1b1b1b on #fff and links #0645ad are well above WCAG AA's 4.5:1; the layout is one column
// that reflows, tables scroll sideways on a narrow screen instead of overflowing the page.
const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;color:#1b1b1b;background:#fff;margin:0}
header,main,footer{max-width:60rem;margin:0 auto;padding:0.5rem 1rem}
header{border-bottom:1px solid #767676}
header a{font-weight:bold;text-decoration:none}
a{color:#0645ad}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin:0.5rem 0}
section{border:1px solid #767676;border-radius:4px;padding:0.5rem 1rem;margin:1rem 0}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:0.2rem 1rem;margin:0.5rem 0}
dt{font-weight:bold}dd{margin:0;overflow-wrap:anywhere}
caption{text-align:left;font-weight:bold;padding:0.5rem 0 0.2rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse}th,td{text-align:left;padding:0.2rem 0.6rem 0.2rem 0;vertical-align:top}
.bad{color:#a00000;font-weight:bold}.good{color:#006100}.warn{color:#7a4d00;font-weight:bold}
pre{white-space:pre-wrap;word-break:break-word;background:#f3f3f3;padding:0.5rem}
form{display:inline}button{font:inherit;padding:0.3rem 0.8rem;margin:0.2rem 0.4rem 0.2rem 0}
ul.actions{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:0.3rem 1.2rem}
`;

export interface Layout {
  title: string;
  /** The page's main content. */
  body: Html;
}

export function layout(page: Layout): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · musicsync</title>
<style>${raw(STYLE)}</style>
</head>
<body>
<header role="banner"><nav aria-label="Site"><a href="/">musicsync</a></nav></header>
<main id="main">
<h1>${page.title}</h1>
${page.body}
</main>
<footer role="contentinfo"><p>musicsync status page</p></footer>
</body>
</html>
`.text;
}

/** A link to a confirmation page for one action (a GET that changes nothing). */
export function actionLink(kind: string, target: string | number, label: string): Html {
  return html`<a href="/actions/${seg(kind)}/${seg(target)}">${label}</a>`;
}
