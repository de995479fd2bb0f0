/**
 * `musicsync match <file> --interactive`: for each tie and each unsure entry, the person picks a
 * numbered candidate, `s` to leave the song (album, artist) out (`skip`), Enter to decide later, or
 * `q` to quit. One code for every kind of entry, as its Shown reads it.
 * Each answer is written to matches.yaml as it is given (the file re-read first, what it says kept
 * as written), so quitting, Ctrl-C, Ctrl-D or a kill keeps every choice made until then.
 */

import { type Override, readOverridesText, withChoice } from "../../engine/files/overrides.js";
import { replaceFile } from "../../engine/files/replace-file.js";
import { choicesOf, openChoices, type Shown, whyChoose } from "../../engine/match/choices.js";
import type { Resolution } from "../../engine/match/resolve.js";
import type { Asker } from "./ask.js";
import type { CliIo } from "./io.js";

/** What one answer says: a video, skip, later, or quit (also the end of input). */
type Answer = { value: Override } | "later" | "quit";

/** The question for one entry: the entry, why it is asked, the numbered candidates, the keys. */
function question<E, C>(r: Resolution<E, C>, shown: Shown<E, C>, n: number, of: number): string {
  const lines = [
    "",
    `[${n}/${of}] ${shown.asked(r.entry)}`,
    `      ${whyChoose(r)}`,
    ...choicesOf(r).map((c, i) => `  ${i + 1}) ${shown.idOf(c.candidate)} ${shown.text(c)}`),
    `  s) leave this ${shown.thing} out (skip)   Enter) decide later   q) quit, keeping what was chosen`,
  ];
  return `${lines.join("\n")}\n`;
}

/** An answer as typed: a number in range, s, q, or nothing; null when it is none of these. */
export function readAnswer<E, C>(typed: string, r: Resolution<E, C>, idOf: (c: C) => string): Answer | null {
  const t = typed.trim().toLowerCase();
  if (t === "") return "later";
  if (t === "q" || t === "quit") return "quit";
  if (t === "s" || t === "skip") return { value: "skip" };
  const choices = choicesOf(r);
  const n = /^\d+$/.test(t) ? Number(t) : 0;
  const picked = choices[n - 1];
  return picked ? { value: idOf(picked.candidate) } : null;
}

async function answerFor<E, C>(
  io: CliIo,
  ask: Asker,
  r: Resolution<E, C>,
  shown: Shown<E, C>,
): Promise<Answer> {
  const count = choicesOf(r).length;
  for (;;) {
    const typed = await ask.ask("choice> ");
    if (typed === null) return "quit";
    const answer = readAnswer(typed, r, shown.idOf);
    if (answer) return answer;
    io.stdout.write(`  Type a number from 1 to ${count}, s, q, or press Enter.\n`);
  }
}

/** Writes one choice; false when matches.yaml decides that entry already (edited meanwhile). */
async function record<E, C>(
  file: string,
  r: Resolution<E, C>,
  shown: Shown<E, C>,
  value: Override,
  today: string,
  first: boolean,
) {
  const existing = await readOverridesText(file);
  const text = withChoice(file, existing, { resolution: r, value }, today, first, shown);
  if (text === null) return false;
  await replaceFile(file, text);
  return true;
}

export async function chooseInteractively<E, C>(
  io: CliIo,
  ask: Asker,
  file: string,
  matched: { resolutions: readonly Resolution<E, C>[]; shown: Shown<E, C> },
  today: string,
): Promise<void> {
  const { resolutions, shown } = matched;
  const open = openChoices(resolutions);
  if (open.length === 0) {
    io.stdout.write("Nothing to choose: every entry is matched, or matches.yaml decides it.\n");
    return;
  }
  let written = 0;
  let later = 0;
  for (const [i, r] of open.entries()) {
    io.stdout.write(question(r, shown, i + 1, open.length));
    const answer = await answerFor(io, ask, r, shown);
    if (answer === "quit") {
      later += open.length - i;
      break;
    }
    if (answer === "later") {
      later += 1;
      continue;
    }
    if (await record(file, r, shown, answer.value, today, written === 0)) {
      written += 1;
      io.stdout.write(`  -> ${JSON.stringify(r.key)}: ${answer.value}\n`);
    } else io.stdout.write(`  ${file} already decides ${JSON.stringify(r.key)}: left as it is.\n`);
  }
  io.stdout.write(
    `${file}: ${written} choice${written === 1 ? "" : "s"} written, ${later} left for later. Review, then commit it.\n`,
  );
}
