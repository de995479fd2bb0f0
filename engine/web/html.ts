/**
 * The pages' building blocks: escaping, and the one layout every page shares (landmarks, a viewport
 * for phones, colours with enough contrast, no script). Pure: data in, text out.
 */

/** A value made safe for HTML text and for a quoted attribute. */
export function esc(value: unknown): string {
  return String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A path segment, for links built from ids. */
export function seg(value: string | number): string {
  return encodeURIComponent(String(value));
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
  /** The page's main content, already HTML. */
  body: string;
}

export function layout(page: Layout): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)} · musicsync</title>
<style>${STYLE}</style>
</head>
<body>
<header role="banner"><nav aria-label="Site"><a href="/">musicsync</a></nav></header>
<main id="main">
<h1>${esc(page.title)}</h1>
${page.body}
</main>
<footer role="contentinfo"><p>musicsync status page</p></footer>
</body>
</html>
`;
}

/** A link to a confirmation page for one action (a GET that changes nothing). */
export function actionLink(kind: string, target: string | number, label: string): string {
  return `<a href="/actions/${seg(kind)}/${seg(target)}">${esc(label)}</a>`;
}
