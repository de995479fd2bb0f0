/** An account's page: what kind of credentials it has and whether they work — never the credentials. */
import { instant } from "../status/format.js";
import type { AccountData } from "./account-data.js";
import { actionLink, html, layout } from "./html.js";

const CLASS: Record<string, string> = { valid: "good", expired: "bad", suspended: "bad", missing: "bad" };

export function accountPage(a: AccountData): string {
  const resume = a.suspended ? html`<p>${actionLink("resume", a.name, `Resume account ${a.name}`)}</p>` : "";
  const recipes = a.recipes.length === 0 ? "none" : a.recipes.join(", ");
  return layout({
    title: `Account ${a.name}`,
    body: html`<section aria-labelledby="creds"><h2 id="creds">Credentials</h2>
<dl>
<dt>Kind</dt><dd>${a.kind ?? "none"}</dd>
<dt>State</dt><dd class="${CLASS[a.verdict] ?? "warn"}">${a.verdict}</dd>
<dt>Why</dt><dd>${a.reason}</dd>
${a.expiresAt ? html`<dt>OAuth access token expires</dt><dd>${instant(Date.parse(a.expiresAt))}</dd>` : ""}
${a.brandAccount ? html`<dt>Brand account</dt><dd>${a.brandAccount}</dd>` : ""}
${a.suspended ? html`<dt>Suspended since</dt><dd>${instant(Date.parse(a.suspended.since))}</dd>` : ""}
<dt>Recipes</dt><dd>${recipes}</dd>
</dl>${resume}</section>`,
  });
}
