/** The catalogue's fixed facts: the moment its dates are drawn around, and the chart countries. */

/**
 * Generated data carries dates around this moment, never the wall clock — except episodes, whose
 * days are stored counted back from the emulator's today so that new episodes stay new.
 */
export const CATALOGUE_EPOCH_MS = Date.UTC(2026, 0, 1);
export const DAY = 86_400_000;

export const CHART_COUNTRIES = ["ZZ", "US", "GB", "DE", "IN"] as const;

const COUNTRY_TITLES: Readonly<Record<string, string>> = {
  US: "United States",
  GB: "United Kingdom",
  DE: "Germany",
  IN: "India",
};

/** The name chart titles give a country: "Global" for ZZ, the service's "worldwide" code. */
export function countryName(code: string): string {
  return code === "ZZ" ? "Global" : (COUNTRY_TITLES[code] ?? code);
}
