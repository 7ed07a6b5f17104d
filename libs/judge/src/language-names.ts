/** English names of the languages Parley's users test in; the code itself is shown for any other. */
const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  af: 'Afrikaans', am: 'Amharic', ar: 'Arabic', de: 'German', en: 'English', es: 'Spanish', fr: 'French',
  ha: 'Hausa', hi: 'Hindi', ig: 'Igbo', it: 'Italian', ja: 'Japanese', nl: 'Dutch', pt: 'Portuguese',
  rw: 'Kinyarwanda', so: 'Somali', st: 'Sesotho', sw: 'Swahili', tn: 'Setswana', xh: 'isiXhosa',
  yo: 'Yoruba', zh: 'Chinese', zu: 'isiZulu',
};

/** `Swahili (sw)`; `xx` for a code without a known name. */
export function languageName(code: string): string {
  const name = Object.hasOwn(LANGUAGE_NAMES, code) ? LANGUAGE_NAMES[code] : undefined;
  return name === undefined ? code : `${name} (${code})`;
}
