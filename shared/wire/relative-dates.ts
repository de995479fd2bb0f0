/**
 * How the service writes a recent date in each display language (`hl`): "3 days ago", "vor 3
 * Tagen", "il y a 3 jours", "3 日前". A wire constant like display-words.ts, shared the same way:
 * readers of dates (the engine's `since` and `sort: date`) parse these words, and the emulator
 * writes them, so that a page asked for with `hl=de` carries German dates on both sides. No field
 * of the service's pages holds a date that does not depend on the language (the captures in
 * ../shared/fixtures: episode rows carry only `subtitle.runs[0].text`).
 *
 * Where the words come from (test/shared/wire/display-words.test.ts checks the shown ones):
 * - English `1 day ago` and `{n} days ago` are the captures' (yt_get_podcast_20240830,
 *   yt_get_new_episodes_20240830), and `Today` and `Yesterday` the history capture's shelf titles
 *   (yt_get_history_20240713, docs/PROTOCOL.md#library).
 * - The other English units and every other language: no capture shows them. They follow CLDR's
 *   relative-time patterns (what `Intl.RelativeTimeFormat` writes), except where a form below
 *   says otherwise.
 *
 * Each unit has its words per CLDR plural category of the language (`Intl.PluralRules`); `{n}` is
 * the number. A form without `{n}` stands for its category's number (Arabic writes one day and two
 * days as words: "قبل يوم واحد", "قبل يومين").
 */

export const DATE_UNITS = ["second", "minute", "hour", "day", "week", "month", "year"] as const;
export type DateUnit = (typeof DATE_UNITS)[number];

type Forms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

export interface RelativeDateWords {
  ago: Readonly<Record<DateUnit, Forms>>;
  today: string;
  yesterday: string;
}

/** Forms for languages whose words do not change with the number. */
const same = (pattern: string): Forms => ({ other: pattern });
const oneOther = (one: string, other: string): Forms => ({ one, other });
/** Russian-style: one (1, 21…), few (2–4, 22…), many (5–20, 25…); `other` (fractions) as many. */
const slavic = (one: string, few: string, many: string): Forms => ({ one, few, many, other: many });
/** Arabic: one and two as words, few (3–10), many (11–99), other (100+, 0). */
const arabic = (one: string, two: string, few: string, many: string, other: string): Forms => ({
  zero: other,
  one,
  two,
  few,
  many,
  other,
});

/** Every language of `LANGUAGES` (shared/wire/constants.ts). */
export const RELATIVE_DATES: Readonly<Record<string, RelativeDateWords>> = {
  en: {
    ago: {
      second: oneOther("1 second ago", "{n} seconds ago"),
      minute: oneOther("1 minute ago", "{n} minutes ago"),
      hour: oneOther("1 hour ago", "{n} hours ago"),
      day: oneOther("1 day ago", "{n} days ago"),
      week: oneOther("1 week ago", "{n} weeks ago"),
      month: oneOther("1 month ago", "{n} months ago"),
      year: oneOther("1 year ago", "{n} years ago"),
    },
    today: "Today",
    yesterday: "Yesterday",
  },
  ar: {
    ago: {
      second: arabic("قبل ثانية واحدة", "قبل ثانيتين", "قبل {n} ثوانٍ", "قبل {n} ثانية", "قبل {n} ثانية"),
      minute: arabic("قبل دقيقة واحدة", "قبل دقيقتين", "قبل {n} دقائق", "قبل {n} دقيقة", "قبل {n} دقيقة"),
      hour: arabic("قبل ساعة واحدة", "قبل ساعتين", "قبل {n} ساعات", "قبل {n} ساعة", "قبل {n} ساعة"),
      day: arabic("قبل يوم واحد", "قبل يومين", "قبل {n} أيام", "قبل {n} يومًا", "قبل {n} يوم"),
      week: arabic("قبل أسبوع واحد", "قبل أسبوعين", "قبل {n} أسابيع", "قبل {n} أسبوعًا", "قبل {n} أسبوع"),
      month: arabic("قبل شهر واحد", "قبل شهرين", "قبل {n} أشهر", "قبل {n} شهرًا", "قبل {n} شهر"),
      year: arabic("قبل سنة واحدة", "قبل سنتين", "قبل {n} سنوات", "قبل {n} سنة", "قبل {n} سنة"),
    },
    today: "اليوم",
    yesterday: "أمس",
  },
  cs: {
    ago: {
      second: slavic("před {n} sekundou", "před {n} sekundami", "před {n} sekundami"),
      minute: slavic("před {n} minutou", "před {n} minutami", "před {n} minutami"),
      hour: slavic("před {n} hodinou", "před {n} hodinami", "před {n} hodinami"),
      day: slavic("před {n} dnem", "před {n} dny", "před {n} dny"),
      week: slavic("před {n} týdnem", "před {n} týdny", "před {n} týdny"),
      month: slavic("před {n} měsícem", "před {n} měsíci", "před {n} měsíci"),
      year: slavic("před {n} rokem", "před {n} lety", "před {n} lety"),
    },
    today: "Dnes",
    yesterday: "Včera",
  },
  de: {
    ago: {
      second: oneOther("vor {n} Sekunde", "vor {n} Sekunden"),
      minute: oneOther("vor {n} Minute", "vor {n} Minuten"),
      hour: oneOther("vor {n} Stunde", "vor {n} Stunden"),
      day: oneOther("vor {n} Tag", "vor {n} Tagen"),
      week: oneOther("vor {n} Woche", "vor {n} Wochen"),
      month: oneOther("vor {n} Monat", "vor {n} Monaten"),
      year: oneOther("vor {n} Jahr", "vor {n} Jahren"),
    },
    today: "Heute",
    yesterday: "Gestern",
  },
  es: {
    ago: {
      second: oneOther("hace {n} segundo", "hace {n} segundos"),
      minute: oneOther("hace {n} minuto", "hace {n} minutos"),
      hour: oneOther("hace {n} hora", "hace {n} horas"),
      day: oneOther("hace {n} día", "hace {n} días"),
      week: oneOther("hace {n} semana", "hace {n} semanas"),
      month: oneOther("hace {n} mes", "hace {n} meses"),
      year: oneOther("hace {n} año", "hace {n} años"),
    },
    today: "Hoy",
    yesterday: "Ayer",
  },
  fr: {
    ago: {
      second: oneOther("il y a {n} seconde", "il y a {n} secondes"),
      minute: oneOther("il y a {n} minute", "il y a {n} minutes"),
      hour: oneOther("il y a {n} heure", "il y a {n} heures"),
      day: oneOther("il y a {n} jour", "il y a {n} jours"),
      week: oneOther("il y a {n} semaine", "il y a {n} semaines"),
      month: oneOther("il y a {n} mois", "il y a {n} mois"),
      year: oneOther("il y a {n} an", "il y a {n} ans"),
    },
    today: "Aujourd'hui",
    yesterday: "Hier",
  },
  hi: {
    ago: {
      second: same("{n} सेकंड पहले"),
      minute: same("{n} मिनट पहले"),
      hour: oneOther("{n} घंटा पहले", "{n} घंटे पहले"),
      day: same("{n} दिन पहले"),
      week: same("{n} सप्ताह पहले"),
      month: oneOther("{n} महीना पहले", "{n} महीने पहले"),
      year: same("{n} वर्ष पहले"),
    },
    today: "आज",
    yesterday: "कल",
  },
  it: {
    ago: {
      second: oneOther("{n} secondo fa", "{n} secondi fa"),
      minute: oneOther("{n} minuto fa", "{n} minuti fa"),
      hour: oneOther("{n} ora fa", "{n} ore fa"),
      day: oneOther("{n} giorno fa", "{n} giorni fa"),
      week: oneOther("{n} settimana fa", "{n} settimane fa"),
      month: oneOther("{n} mese fa", "{n} mesi fa"),
      year: oneOther("{n} anno fa", "{n} anni fa"),
    },
    today: "Oggi",
    yesterday: "Ieri",
  },
  ja: {
    ago: {
      second: same("{n} 秒前"),
      minute: same("{n} 分前"),
      hour: same("{n} 時間前"),
      day: same("{n} 日前"),
      week: same("{n} 週間前"),
      month: same("{n} か月前"),
      year: same("{n} 年前"),
    },
    today: "今日",
    yesterday: "昨日",
  },
  ko: {
    ago: {
      second: same("{n}초 전"),
      minute: same("{n}분 전"),
      hour: same("{n}시간 전"),
      day: same("{n}일 전"),
      week: same("{n}주 전"),
      month: same("{n}개월 전"),
      year: same("{n}년 전"),
    },
    today: "오늘",
    yesterday: "어제",
  },
  nl: {
    ago: {
      second: oneOther("{n} seconde geleden", "{n} seconden geleden"),
      minute: oneOther("{n} minuut geleden", "{n} minuten geleden"),
      hour: same("{n} uur geleden"),
      day: oneOther("{n} dag geleden", "{n} dagen geleden"),
      week: oneOther("{n} week geleden", "{n} weken geleden"),
      month: oneOther("{n} maand geleden", "{n} maanden geleden"),
      year: same("{n} jaar geleden"),
    },
    today: "Vandaag",
    yesterday: "Gisteren",
  },
  pt: {
    ago: {
      second: oneOther("há {n} segundo", "há {n} segundos"),
      minute: oneOther("há {n} minuto", "há {n} minutos"),
      hour: oneOther("há {n} hora", "há {n} horas"),
      day: oneOther("há {n} dia", "há {n} dias"),
      week: oneOther("há {n} semana", "há {n} semanas"),
      month: oneOther("há {n} mês", "há {n} meses"),
      year: oneOther("há {n} ano", "há {n} anos"),
    },
    today: "Hoje",
    yesterday: "Ontem",
  },
  ru: {
    ago: {
      second: slavic("{n} секунду назад", "{n} секунды назад", "{n} секунд назад"),
      minute: slavic("{n} минуту назад", "{n} минуты назад", "{n} минут назад"),
      hour: slavic("{n} час назад", "{n} часа назад", "{n} часов назад"),
      day: slavic("{n} день назад", "{n} дня назад", "{n} дней назад"),
      week: slavic("{n} неделю назад", "{n} недели назад", "{n} недель назад"),
      month: slavic("{n} месяц назад", "{n} месяца назад", "{n} месяцев назад"),
      year: slavic("{n} год назад", "{n} года назад", "{n} лет назад"),
    },
    today: "Сегодня",
    yesterday: "Вчера",
  },
  tr: {
    ago: {
      second: same("{n} saniye önce"),
      minute: same("{n} dakika önce"),
      hour: same("{n} saat önce"),
      day: same("{n} gün önce"),
      week: same("{n} hafta önce"),
      month: same("{n} ay önce"),
      year: same("{n} yıl önce"),
    },
    today: "Bugün",
    yesterday: "Dün",
  },
  ur: {
    ago: {
      second: same("{n} سیکنڈ پہلے"),
      minute: same("{n} منٹ پہلے"),
      hour: oneOther("{n} گھنٹہ پہلے", "{n} گھنٹے پہلے"),
      day: same("{n} دن پہلے"),
      week: oneOther("{n} ہفتہ پہلے", "{n} ہفتے پہلے"),
      month: oneOther("{n} مہینہ پہلے", "{n} مہینے پہلے"),
      year: same("{n} سال پہلے"),
    },
    today: "آج",
    yesterday: "کل",
  },
  zh_CN: {
    ago: {
      second: same("{n}秒前"),
      minute: same("{n}分钟前"),
      hour: same("{n}小时前"),
      day: same("{n}天前"),
      week: same("{n}周前"),
      month: same("{n}个月前"),
      year: same("{n}年前"),
    },
    today: "今天",
    yesterday: "昨天",
  },
  zh_TW: {
    ago: {
      second: same("{n} 秒前"),
      minute: same("{n} 分鐘前"),
      hour: same("{n} 小時前"),
      day: same("{n} 天前"),
      week: same("{n} 週前"),
      month: same("{n} 個月前"),
      year: same("{n} 年前"),
    },
    today: "今天",
    yesterday: "昨天",
  },
};

/** `zh_CN` → `zh-CN`: the BCP 47 tag Intl wants for an `hl` value. */
export function bcp47(language: string): string {
  return language.replace("_", "-");
}

/** The number a form without `{n}` stands for. */
export const CATEGORY_NUMBER: Partial<Record<Intl.LDMLPluralRule, number>> = { one: 1, two: 2 };

/** "vor 3 Tagen": `n` units ago as the service writes it in `language` (English if unknown). */
export function relativeDateText(language: string, unit: DateUnit, n: number): string {
  const words = RELATIVE_DATES[language] ?? RELATIVE_DATES.en!;
  const forms = words.ago[unit];
  const category = new Intl.PluralRules(bcp47(language)).select(n);
  let form = forms[category] ?? forms.other;
  // A wordy form stands for one number only (Arabic "two days" is not "22 days").
  if (!form.includes("{n}") && CATEGORY_NUMBER[category] !== n) form = forms.other;
  return form.replace("{n}", String(n));
}
