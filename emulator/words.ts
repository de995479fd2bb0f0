/** Word lists the catalogue generator builds names from (invented; any resemblance is chance). */

export const ADJECTIVES = (
  "golden silver quiet electric velvet broken hidden midnight paper crimson distant endless frozen " +
  "gentle hollow lucky neon northern painted restless secret shining silent simple slow southern " +
  "sudden sweet wild wooden young amber blue bright burning cold dark early empty faded final " +
  "glass green heavy honest lonely lost lunar marble open pale perfect rainy royal scarlet " +
  "second summer tender violet warm wandering western white winter"
).split(" ");

export const NOUNS = (
  "harbor lights river echo garden highway mirror ocean thunder city heart window letter dream " +
  "shadow fire horizon island machine morning signal station story sunrise valley voices wave " +
  "anchor arrow bridge canyon circle comet desert engine feather forest ghost hotel kingdom " +
  "lantern meadow orbit parade planet rain road rocket season shore sky song spark storm street " +
  "tide tower train tunnel weather wind wire wolves"
).split(" ");

export const FIRST_NAMES = (
  "Ada Ben Cleo Dario Elin Finn Greta Hugo Iris Jonas Kira Leo Mara Nils Olive Pia Quinn Rosa Sami " +
  "Tove Uma Vera Wes Xena Yara Zane Alma Bruno Celia Dev Esme Felix Gia Hale Ines Jude Kai Lina Milo Noor"
).split(" ");

export const LAST_NAMES = (
  "Lind Moreau Okafor Petrov Quist Rivera Sato Thorne Ueda Vance Wolfe Young Zeller Abara Brandt " +
  "Castell Doyle Eklund Farrow Grant Holm Ivers Janek Kowal Laine Marsh Novak Orsini Park Reyes"
).split(" ");

export const GENRES =
  "Pop Rock Hip-Hop Jazz Classical Country Electronic R&B Soul Folk Metal Reggae Latin Indie Blues K-Pop".split(
    " ",
  );

export const MOODS = "Chill Workout Focus Party Sleep Romance Commute Feel Good".split(" ");
export const FOR_YOU = "Energy Boosters,Relax,Feel Good Favourites".split(",");

export const LYRIC_LINES = [
  "I hear the {n} calling out my name",
  "We were {a} and the night was ours",
  "Hold on to the {n}, hold on to me",
  "Every {n} turns {a} when you are gone",
  "Running through the {a} {n} again",
  "Say the word and I will follow",
  "The {n} knows where we belong",
  "Nothing stays {a} forever",
];
