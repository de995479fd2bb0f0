/** Pages that answer an action or a bad request: a confirmation form, a result, an error. */
import { esc, layout, seg } from "./html.js";

export function confirmPage(o: {
  kind: string;
  target: string;
  what: string;
  csrf: string;
  button: string;
}): string {
  return layout({
    title: "Confirm",
    body: `<p>${esc(o.what)}</p>
<form method="post" action="/actions/${seg(o.kind)}/${seg(o.target)}">
<input type="hidden" name="csrf" value="${esc(o.csrf)}">
<button type="submit">${esc(o.button)}</button>
</form> <a href="/">Cancel</a>`,
  });
}

export function resultPage(o: {
  title: string;
  lines: readonly string[];
  pre?: string;
  links?: string;
}): string {
  const body = o.lines.map((l) => `<p>${esc(l)}</p>`).join("\n");
  return layout({
    title: o.title,
    body: `<div role="status">${body}</div>${o.pre !== undefined ? `<pre>${esc(o.pre)}</pre>` : ""}<p>${o.links ?? ""}<a href="/">Back to the recipes</a></p>`,
  });
}

export function errorPage(status: number, message: string): string {
  return layout({
    title: `${status} ${TITLES[status] ?? "Error"}`,
    body: `<p role="alert">${esc(message)}</p><p><a href="/">Back to the recipes</a></p>`,
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
