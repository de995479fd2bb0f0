/** Pages that answer an action or a bad request: a confirmation form, a result, an error. */
import { type Html, html, join, layout, seg } from "./html.js";

export function confirmPage(o: {
  kind: string;
  target: string;
  what: string;
  csrf: string;
  button: string;
}): string {
  return layout({
    title: "Confirm",
    body: html`<p>${o.what}</p>
<form method="post" action="/actions/${seg(o.kind)}/${seg(o.target)}">
<input type="hidden" name="csrf" value="${o.csrf}">
<button type="submit">${o.button}</button>
</form> <a href="/">Cancel</a>`,
  });
}

export function resultPage(o: {
  title: string;
  lines: readonly string[];
  pre?: string;
  links?: Html;
}): string {
  const body = join(
    o.lines.map((l) => html`<p>${l}</p>`),
    "\n",
  );
  return layout({
    title: o.title,
    body: html`<div role="status">${body}</div>${o.pre !== undefined ? html`<pre>${o.pre}</pre>` : ""}<p>${o.links ?? ""}<a href="/">Back to the recipes</a></p>`,
  });
}

export function errorPage(status: number, message: string): string {
  return layout({
    title: `${status} ${TITLES[status] ?? "Error"}`,
    body: html`<p role="alert">${message}</p><p><a href="/">Back to the recipes</a></p>`,
  });
}

const TITLES: Record<number, string> = {
  400: "Bad request",
  401: "Not signed in",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Too large",
  421: "Misdirected request",
  429: "Too many requests",
  500: "Server error",
  503: "Not ready",
};
