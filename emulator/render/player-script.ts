/**
 * The player script's text (emulator/README.md "Stream URLs and the player script"): our own small
 * program in the shape of the service's `base.js`, so that clients find its parts the way they find
 * them there. Everything sits inside the `_yt_player` wrapper `(function(g){…})(_yt_player)`:
 *
 * - `signatureTimestamp` as a property of an object a function held by a variable builds;
 * - a helper object of small array operations (reverse, drop the first characters, swap with the
 *   first) and the signature function `a=a.split("");…helper calls…;return a.join("")`;
 * - the `n` function, called from a URL class method as `(b=a.get("n"))&&(b=nFn(b),a.set("n",b))`;
 * - the URL class `g.<name>` (methods added through `g.k=g.<name>.prototype`), and the stream URL
 *   builder `function(a,b="",c=""){a=new g.<name>(a,!0);a.set("alr","yes");c&&(c=sigFn(
 *   decodeURIComponent(c)),a.set(b,encodeURIComponent(c)));return a}`. youtubei.js finds the builder
 *   by that shape (three parameters, the last two defaulted, `new` of a member, `set("alr","yes")`),
 *   calls it with a URL, `sp` and `s`, calls the returned object's methods and reads `sp` and `n`;
 *   text-matching extractors find the signature function after `c&&(c=` and the `n` function after
 *   `.get("n"))&&(b=`.
 *
 * The transforms come from `cipherPlan` (`../stream-cipher.ts`), which the server checks against.
 */
import { ID_ALPHABET } from "../random.js";
import type { CipherPlan, SigStep } from "../stream-cipher.js";

/** The helper object's method for each step kind (short names, as in minified code). */
const HELPER = "Xk";
const METHOD: Record<SigStep["op"], string> = { reverse: "Rv", splice: "Qp", swap: "Zm" };

function stepCall(step: SigStep): string {
  const arg = step.op === "reverse" ? 0 : step.op === "splice" ? step.count : step.index;
  return `${HELPER}.${METHOD[step.op]}(a,${arg});`;
}

/**
 * The URL class: `new g.Ui(url, true)` keeps the query as encoded pairs; `get`/`set` read and write
 * them; `Yh()` runs the `n` function once (when built with `true`) and `Tc()` writes the URL out.
 */
function urlClass(nFn: string): string[] {
  return [
    'g.Ui=function(a,b){var c=a.indexOf("?");this.base=c<0?a:a.slice(0,c);this.j={};this.keys=[];this.G=b===void 0?!1:b;',
    'if(c>=0)for(var d=a.slice(c+1).split("&"),e=0;e<d.length;e++)if(d[e]){var f=d[e].indexOf("="),h=f<0?d[e]:d[e].slice(0,f);this.set(h,f<0?"":d[e].slice(f+1))}};',
    "g.k=g.Ui.prototype;",
    "g.k.get=function(a){return this.j.hasOwnProperty(a)?this.j[a]:null};",
    "g.k.set=function(a,b){this.j.hasOwnProperty(a)||this.keys.push(a);this.j[a]=b};",
    `g.k.Yh=function(){var a=this,b;a.G&&(b=a.get("n"))&&(b=${nFn}(b),a.set("n",b));a.G=!1;return a};`,
    'g.k.Tc=function(){this.Yh();for(var a=[],b=0;b<this.keys.length;b++)a.push(this.keys[b]+"="+this.j[this.keys[b]]);return this.base+(a.length?"?"+a.join("&"):"")};',
  ];
}

/** The whole script for one player version, signature timestamp and plan. */
export function playerScript(version: string, sts: number, plan: CipherPlan): string {
  const sigFn = "tVa";
  const nFn = "nQa";
  return [
    "var _yt_player={};(function(g){var window=this;",
    `var mJa=function(a){a=a===void 0?{}:a;return{signatureTimestamp:${sts},player:"${version}",hl:a.hl||"en"}};`,
    `var ${HELPER}={${METHOD.reverse}:function(a){a.reverse()},${METHOD.splice}:function(a,b){a.splice(0,b)},${METHOD.swap}:function(a,b){var c=a[0];a[0]=a[b%a.length];a[b%a.length]=c}};`,
    `var ${sigFn}=function(a){a=a.split("");${plan.sig.map(stepCall).join("")}return a.join("")};`,
    `var ${nFn}=function(a){var b=a.split(""),c=[${plan.shifts.join(",")}],h="${ID_ALPHABET}";for(var d=0;d<b.length;d++){var e=h.indexOf(b[d]);e>=0&&(b[d]=h[(e+c[d%c.length])%h.length])}var f=b.splice(0,${plan.rotate});return b.concat(f).join("")};`,
    ...urlClass(nFn),
    `var Ysa=function(a,b="",c=""){a=new g.Ui(a,!0);a.set("alr","yes");c&&(c=${sigFn}(decodeURIComponent(c)),a.set(b,encodeURIComponent(c)));return a};`,
    "g.playerConfig=mJa;",
    "})(_yt_player);",
    "",
  ].join("\n");
}
